/**
 * A small schema checker for request bodies: the declared request schemas forbid properties
 * that are not listed, required fields must be filled in, and types are checked, each failure
 * answered with 400 and a Russian `message` naming the field (dotted path, `[i]` for items).
 */

import { badRequest, messages } from './api-errors.js';
import { dayKey, isDate } from './dates.js';

interface Common {
  /** Absent or null accepted. */
  optional?: boolean;
}

export interface StringSchema extends Common {
  type: 'string';
  /** An empty (or blank) string counts as "filled in". */
  allowEmpty?: boolean;
  /** Extra check of a non-empty value: returns the Russian message on failure. */
  check?: (value: string, field: string) => string | undefined;
}

export interface IntegerSchema extends Common {
  type: 'integer';
  min?: number;
  max?: number;
  /** Message when out of [min, max]; default names the field and the range. */
  rangeMessage?: (value: number, field: string) => string;
}

export interface BooleanSchema extends Common {
  type: 'boolean';
}

export interface ObjectSchema extends Common {
  type: 'object';
  fields: Record<string, Schema>;
}

export interface ArraySchema extends Common {
  type: 'array';
  items: Schema;
  minItems?: number;
  maxItems?: number;
}

export type Schema = StringSchema | IntegerSchema | BooleanSchema | ObjectSchema | ArraySchema;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Throws a 400 ApiError at the first violation of `schema` by `value` (at `path`). */
export function validate(value: unknown, schema: Schema, path: string): void {
  if (value === undefined || value === null) {
    if (schema.optional) return;
    throw badRequest(messages.required(path));
  }
  switch (schema.type) {
    case 'string': {
      if (typeof value !== 'string') throw badRequest(messages.notString(path));
      if (value.trim() === '') {
        if (schema.allowEmpty || schema.optional) return;
        throw badRequest(messages.required(path));
      }
      const problem = schema.check?.(value, path);
      if (problem !== undefined) throw badRequest(problem);
      return;
    }
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) throw badRequest(messages.notInteger(path));
      const min = schema.min ?? -2_147_483_648;
      const max = schema.max ?? 2_147_483_647;
      if (value < min || value > max) {
        throw badRequest(schema.rangeMessage?.(value, path) ?? messages.outOfRange(path, min, max));
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw badRequest(messages.notBoolean(path));
      return;
    case 'object': {
      if (!isObject(value)) throw badRequest(messages.notObject(path));
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(schema.fields, key)) throw badRequest(messages.extraProperty(join(path, key)));
      }
      for (const [key, fieldSchema] of Object.entries(schema.fields)) {
        validate(value[key], fieldSchema, join(path, key));
      }
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) throw badRequest(messages.notArray(path));
      const min = schema.minItems ?? 0;
      const max = schema.maxItems ?? Number.MAX_SAFE_INTEGER;
      if (value.length < min || value.length > max) {
        if (value.length === 0) throw badRequest(messages.required(path));
        throw badRequest(messages.arrayLength(path, min, max));
      }
      value.forEach((item: unknown, index) => {
        validate(item, schema.items, `${path}[${index}]`);
      });
      return;
    }
  }
}

/** Validates the top-level body object (fields named without a prefix). */
export function validateBody(body: JsonObject, fields: Record<string, Schema>): void {
  validate(body, { type: 'object', fields }, '');
}

/** The request body as an object: an empty body counts as `{}`; anything else is a 400. */
export function bodyObject(body: unknown): JsonObject {
  if (body === undefined) return {};
  if (!isObject(body)) throw badRequest(messages.bodyNotObject);
  return body;
}

// ---- ready-made field schemas -------------------------------------------------------------

export const requiredString: StringSchema = { type: 'string' };
export const optionalString: StringSchema = { type: 'string', optional: true };
export const requiredInteger: IntegerSchema = { type: 'integer' };

export function dateString(optional = false): StringSchema {
  return {
    type: 'string',
    optional,
    check: (value, field) =>
      isDate(value) ? undefined : messages.invalidFormat(field, 'ожидается дата ДД.ММ.ГГГГ'),
  };
}

export function patternString(pattern: RegExp, hint: string, optional = false): StringSchema {
  return {
    type: 'string',
    optional,
    check: (value, field) => (pattern.test(value) ? undefined : messages.invalidFormat(field, hint)),
  };
}

// ---- query parameters ---------------------------------------------------------------------

function queryValue(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** An optional integer query parameter; 400 when present and not an integer. */
export function queryInteger(query: URLSearchParams, name: string): number | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  if (!/^-?\d{1,10}$/.test(value)) throw badRequest(messages.queryNotInteger(name));
  const number = Number(value);
  if (number < -2_147_483_648 || number > 2_147_483_647) throw badRequest(messages.queryNotInteger(name));
  return number;
}

/** An optional `DD.MM.YYYY` query parameter as a day key; 400 when present and malformed. */
export function queryDay(query: URLSearchParams, name: string): number | undefined {
  const value = queryValue(query, name);
  if (value === undefined) return undefined;
  if (!isDate(value)) throw badRequest(messages.queryNotDate(name));
  return dayKey(value);
}

/** An optional string query parameter. */
export function queryString(query: URLSearchParams, name: string): string | undefined {
  return queryValue(query, name);
}

/** A path parameter that must be an int32; 400 otherwise. */
export function pathInteger(value: string, name: string): number {
  if (!/^-?\d{1,10}$/.test(value)) throw badRequest(messages.pathNotInteger(name));
  const number = Number(value);
  if (number < -2_147_483_648 || number > 2_147_483_647) throw badRequest(messages.pathNotInteger(name));
  return number;
}
