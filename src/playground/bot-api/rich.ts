/**
 * Rich messages (Bot API 10.1) as Telegram checks them: an InputRichMessage given as `blocks` is
 * read into the RichMessage a Message carries (list items get their label, table cells their
 * alignment), and refused where Telegram refuses it — more than 32,768 characters of text (code
 * points, counting every RichText string: table cells, summaries, captions, credits, custom emoji
 * alternative text, formula source), more than 500 blocks (nested blocks, list items and table rows
 * counted), more than 16 levels of nested blocks and formatting, a table over 20 columns, none or
 * more than one of html/markdown/blocks, an empty message.
 *
 * What the local server does not take, and says so: `html` and `markdown` (the bot sends blocks),
 * media blocks (photo, video, audio, animation, voice note, document — and so collages and
 * slideshows of them), and `thinking` blocks, which Telegram allows only in drafts.
 */
import { badRequest } from './failures.js';
import { BUTTON_ACTIONS, checkButtonAction } from './markup.js';
import { listLabel } from './rich-list-labels.js';
import { plainRichText } from './rich-walk.js';
import { isRecord, type Json } from './wire.js';

/** Telegram's limits on a rich message (the "Rich Message Limits" of the Bot API). */
export const RICH_LIMITS = { characters: 32_768, blocks: 500, depth: 16, columns: 20, buttons: 8 } as const;

/** The refusals, in the words the local server answers with (after "Bad Request: "). */
export const RICH_REFUSALS = {
  required: 'parameter "rich_message" is required',
  notObject: "can't parse InputRichMessage JSON object",
  oneOf: 'exactly one of "html", "markdown" and "blocks" must be specified in the rich message',
  blocksOnly: 'the local Bot API server takes rich messages as "blocks" only, not "html" or "markdown"',
  empty: 'rich message is empty',
  tooLong: `rich message is too long: more than ${RICH_LIMITS.characters} characters`,
  tooManyBlocks: `too many blocks in the rich message: more than ${RICH_LIMITS.blocks}`,
  tooDeep: `rich message is nested too deeply: more than ${RICH_LIMITS.depth} levels`,
  tooManyColumns: `too many columns in a table: more than ${RICH_LIMITS.columns}`,
} as const;

/** Formatting that only wraps its text, by type, with the string fields each one also needs. */
const TEXT_TYPES: Record<string, readonly string[]> = {
  bold: [],
  italic: [],
  underline: [],
  strikethrough: [],
  spoiler: [],
  subscript: [],
  superscript: [],
  marked: [],
  code: [],
  url: ['url'],
  email_address: ['email_address'],
  phone_number: ['phone_number'],
  bank_card_number: ['bank_card_number'],
  mention: ['username'],
  hashtag: ['hashtag'],
  cashtag: ['cashtag'],
  bot_command: ['bot_command'],
  anchor_link: ['anchor_name'],
  reference: ['name'],
  reference_link: ['reference_name'],
};

const MEDIA_BLOCKS = new Set(['photo', 'video', 'audio', 'animation', 'voice_note', 'document']);
/** A rich message's buttons (RichMessageButton): an inline button's actions but a game and a payment. */
const RICH_BUTTON_ACTIONS = BUTTON_ACTIONS.filter((action) => action !== 'callback_game' && action !== 'pay');
const ALIGN = new Set(['left', 'center', 'right']);
const VALIGN = new Set(['top', 'middle', 'bottom']);

/** Read a rich message to send (checked against Telegram's limits) into what a Message carries. */
export function readRichMessage(value: unknown): Json {
  if (value === undefined || value === null) throw badRequest(RICH_REFUSALS.required);
  if (!isRecord(value)) throw badRequest(RICH_REFUSALS.notObject);
  const given = ['html', 'markdown', 'blocks'].filter((field) => value[field] !== undefined);
  if (given.length !== 1) throw badRequest(RICH_REFUSALS.oneOf);
  if (value.blocks === undefined) throw badRequest(RICH_REFUSALS.blocksOnly);
  if (!Array.isArray(value.blocks)) {
    throw badRequest('can\'t parse rich message: Field "blocks" must be of type Array');
  }
  const reader = new RichReader();
  const blocks = reader.blocks(value.blocks, 1);
  if (blocks.length === 0 || (!reader.hasVisibleText && !reader.hasMap))
    throw badRequest(RICH_REFUSALS.empty);
  return { blocks, ...(value.is_rtl === true ? { is_rtl: true } : {}) };
}

/** One pass over a message's blocks: it counts text and blocks as it goes, and refuses at once. */
class RichReader {
  characters = 0;
  /** Whether any text is more than white space: a message of none (and no map) is empty. */
  hasVisibleText = false;
  hasMap = false;
  private blockCount = 0;

  blocks(value: unknown, depth: number): Json[] {
    if (!Array.isArray(value))
      throw badRequest('can\'t parse rich block: Field "blocks" must be of type Array');
    return value.map((block: unknown) => this.block(block, depth));
  }

  private countBlock(): void {
    this.blockCount += 1;
    if (this.blockCount > RICH_LIMITS.blocks) throw badRequest(RICH_REFUSALS.tooManyBlocks);
  }

  private enter(depth: number): void {
    if (depth > RICH_LIMITS.depth) throw badRequest(RICH_REFUSALS.tooDeep);
  }

  private count(text: string): void {
    for (const _ of text) this.characters += 1;
    if (!this.hasVisibleText && /\S/u.test(text)) this.hasVisibleText = true;
    if (this.characters > RICH_LIMITS.characters) throw badRequest(RICH_REFUSALS.tooLong);
  }

  private string(value: unknown, field: string, where: string): string {
    if (typeof value !== 'string')
      throw badRequest(`can't parse ${where}: Field "${field}" must be of type String`);
    return value;
  }

  /** A RichText whose formatting objects sit at `depth` (strings and arrays add no level). */
  text(value: unknown, depth: number): unknown {
    if (typeof value === 'string') {
      this.count(value);
      return value;
    }
    if (Array.isArray(value)) return value.map((part: unknown) => this.text(part, depth));
    if (!isRecord(value) || typeof value.type !== 'string') {
      throw badRequest("can't parse rich text: expected a String, an Array or an Object with a type");
    }
    this.enter(depth);
    const type = value.type;
    const fields = TEXT_TYPES[type];
    if (fields) {
      const kept: Json = { type, text: this.text(value.text ?? '', depth + 1) };
      for (const field of fields) kept[field] = this.string(value[field], field, 'rich text');
      return kept;
    }
    switch (type) {
      case 'date_time':
        if (typeof value.unix_time !== 'number') {
          throw badRequest('can\'t parse rich text: Field "unix_time" must be of type Integer');
        }
        return {
          type,
          text: this.text(value.text ?? '', depth + 1),
          unix_time: value.unix_time,
          date_time_format: this.string(value.date_time_format, 'date_time_format', 'rich text'),
        };
      case 'text_mention':
        if (!isRecord(value.user) || typeof value.user.id !== 'number') {
          throw badRequest('can\'t parse rich text: Field "user" must be a User');
        }
        return { type, text: this.text(value.text ?? '', depth + 1), user: structuredClone(value.user) };
      case 'custom_emoji': {
        const alternative = this.string(value.alternative_text, 'alternative_text', 'rich text');
        this.count(alternative);
        return {
          type,
          custom_emoji_id: this.string(value.custom_emoji_id, 'custom_emoji_id', 'rich text'),
          alternative_text: alternative,
        };
      }
      case 'mathematical_expression': {
        const expression = this.string(value.expression, 'expression', 'rich text');
        this.count(expression);
        return { type, expression };
      }
      case 'anchor':
        return { type, name: this.string(value.name, 'name', 'rich text') };
      case 'button':
        return { type, button: this.button(value.button, depth + 1) };
      default:
        throw badRequest(`can't parse rich text: unknown type "${type}"`);
    }
  }

  private optionalText(value: unknown, depth: number): unknown {
    return value === undefined ? undefined : this.text(value, depth);
  }

  private caption(value: unknown, depth: number): Json | undefined {
    if (value === undefined) return undefined;
    if (!isRecord(value)) throw badRequest('can\'t parse rich block: Field "caption" must be an Object');
    return withDefined({
      text: this.text(value.text ?? '', depth),
      credit: this.optionalText(value.credit, depth),
    });
  }

  block(value: unknown, depth: number): Json {
    if (!isRecord(value) || typeof value.type !== 'string') {
      throw badRequest("can't parse rich block: expected an Object with a type");
    }
    this.countBlock();
    this.enter(depth);
    const type = value.type;
    const inner = depth + 1;
    switch (type) {
      case 'paragraph':
      case 'footer':
        return { type, text: this.text(value.text ?? '', inner) };
      case 'pre':
        return withDefined({
          type,
          text: this.text(value.text ?? '', inner),
          language:
            value.language === undefined ? undefined : this.string(value.language, 'language', 'rich block'),
        });
      case 'heading': {
        const size = value.size;
        if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > 6) {
          throw badRequest("can't parse rich block: heading size must be between 1 and 6");
        }
        return { type, text: this.text(value.text ?? '', inner), size };
      }
      case 'divider':
        return { type };
      case 'mathematical_expression': {
        const expression = this.string(value.expression, 'expression', 'rich block');
        this.count(expression);
        return { type, expression };
      }
      case 'anchor':
        return { type, name: this.string(value.name, 'name', 'rich block') };
      case 'list':
        return { type, items: this.listItems(value.items, inner) };
      case 'blockquote':
        return withDefined({
          type,
          blocks: this.blocks(value.blocks, inner),
          credit: this.optionalText(value.credit, inner),
        });
      case 'expandable_blockquote':
      case 'pullquote':
        return withDefined({
          type,
          text: this.text(value.text ?? '', inner),
          credit: this.optionalText(value.credit, inner),
        });
      case 'collage':
      case 'slideshow':
        return withDefined({
          type,
          blocks: this.blocks(value.blocks, inner),
          caption: this.caption(value.caption, inner),
        });
      case 'table':
        return this.table(value, inner);
      case 'details':
        return withDefined({
          type,
          summary: this.text(value.summary ?? '', inner),
          blocks: this.blocks(value.blocks, inner),
          is_open: value.is_open === true ? true : undefined,
        });
      case 'map':
        return this.map(value, inner);
      case 'buttons':
        return this.buttonRow(value, inner);
      case 'thinking':
        throw badRequest('thinking blocks can be used only in sendRichMessageDraft');
      default:
        if (MEDIA_BLOCKS.has(type)) {
          throw badRequest(
            `the local Bot API server does not take media blocks ("${type}") in rich messages`,
          );
        }
        throw badRequest(`can't parse rich block: unknown type "${type}"`);
    }
  }

  /** List items count as blocks; an item's label is what a phone shows before it. */
  private listItems(value: unknown, depth: number): Json[] {
    if (!Array.isArray(value) || value.length === 0) {
      throw badRequest('can\'t parse rich block: Field "items" must be a non-empty Array');
    }
    return value.map((item: unknown, index: number) => {
      if (!isRecord(item)) throw badRequest("can't parse rich block: a list item must be an Object");
      this.countBlock();
      const number = typeof item.value === 'number' ? item.value : index + 1;
      const label = typeof item.label === 'string' ? item.label : listLabel(item.type, number);
      return withDefined({
        label,
        blocks: this.blocks(item.blocks ?? [], depth),
        has_checkbox: item.has_checkbox === true ? true : undefined,
        is_checked: item.is_checked === true ? true : undefined,
        value: typeof item.value === 'number' ? item.value : undefined,
        type: typeof item.type === 'string' ? item.type : undefined,
      });
    });
  }

  /** Table rows count as blocks; a row's columns are its cells' colspans. */
  private table(value: Json, depth: number): Json {
    if (!Array.isArray(value.cells)) {
      throw badRequest('can\'t parse rich block: Field "cells" must be an Array of Arrays');
    }
    const rows = value.cells.map((row: unknown) => {
      if (!Array.isArray(row))
        throw badRequest('can\'t parse rich block: Field "cells" must be an Array of Arrays');
      this.countBlock();
      let columns = 0;
      const cells = row.map((cell: unknown) => {
        if (!isRecord(cell)) throw badRequest("can't parse rich block: a table cell must be an Object");
        const colspan = positiveInteger(cell.colspan, 'colspan');
        columns += colspan ?? 1;
        const align = cell.align ?? 'left';
        const valign = cell.valign ?? 'top';
        if (typeof align !== 'string' || !ALIGN.has(align)) {
          throw badRequest(
            'can\'t parse rich block: table cell "align" must be one of "left", "center" or "right"',
          );
        }
        if (typeof valign !== 'string' || !VALIGN.has(valign)) {
          throw badRequest(
            'can\'t parse rich block: table cell "valign" must be one of "top", "middle" or "bottom"',
          );
        }
        return withDefined({
          text: this.optionalText(cell.text, depth),
          is_header: cell.is_header === true ? true : undefined,
          colspan: colspan !== undefined && colspan > 1 ? colspan : undefined,
          rowspan: (() => {
            const rowspan = positiveInteger(cell.rowspan, 'rowspan');
            return rowspan !== undefined && rowspan > 1 ? rowspan : undefined;
          })(),
          align,
          valign,
        });
      });
      if (columns > RICH_LIMITS.columns) throw badRequest(RICH_REFUSALS.tooManyColumns);
      return cells;
    });
    return withDefined({
      type: 'table',
      cells: rows,
      is_bordered: value.is_bordered === true ? true : undefined,
      is_striped: value.is_striped === true ? true : undefined,
      is_compact: value.is_compact === true ? true : undefined,
      caption: this.optionalText(value.caption, depth),
    });
  }

  private map(value: Json, depth: number): Json {
    const location = value.location;
    if (
      !isRecord(location) ||
      typeof location.latitude !== 'number' ||
      typeof location.longitude !== 'number'
    ) {
      throw badRequest('can\'t parse rich block: Field "location" must be a Location');
    }
    const size = (field: string, max: number): number => {
      const n = value[field];
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
        throw badRequest(`can't parse rich block: map ${field} must be between 0 and ${max}`);
      }
      return n;
    };
    this.hasMap = true;
    return withDefined({
      type: 'map',
      location: { latitude: location.latitude, longitude: location.longitude },
      zoom: size('zoom', 24),
      width: size('width', 10_000),
      height: size('height', 10_000),
      caption: this.caption(value.caption, depth),
    });
  }

  private buttonRow(value: Json, depth: number): Json {
    const buttons = value.buttons;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > RICH_LIMITS.buttons) {
      throw badRequest(`can't parse rich block: a row must have 1-${RICH_LIMITS.buttons} buttons`);
    }
    if (value.align !== undefined && (typeof value.align !== 'string' || !ALIGN.has(value.align))) {
      throw badRequest('can\'t parse rich block: buttons "align" must be one of "left", "center" or "right"');
    }
    return withDefined({
      type: 'buttons',
      buttons: buttons.map((button: unknown) => this.button(button, depth)),
      align: value.align,
    });
  }

  /** A rich message's button: inline buttons' rules, a RichText label, and the "link" style. */
  private button(value: unknown, depth: number): Json {
    const prefix = "can't parse rich message button";
    if (!isRecord(value)) throw badRequest(`${prefix}: a button must be an Object`);
    const text = this.text(value.text ?? '', depth);
    if (plainRichText(text).trim() === '') throw badRequest('BUTTON_TEXT_INVALID');
    const actions = RICH_BUTTON_ACTIONS.filter((field) => value[field] !== undefined);
    if (actions.length !== 1) throw badRequest(`${prefix}: exactly one action is allowed`);
    const style = value.style;
    if (style !== undefined && !['danger', 'success', 'primary', 'link'].includes(String(style))) {
      throw badRequest(`${prefix}: invalid button style specified`);
    }
    if (style === 'link' && value.callback_data === undefined) {
      throw badRequest(`${prefix}: the "link" style is allowed only for callback buttons`);
    }
    checkButtonAction(value, prefix);
    const [action = ''] = actions;
    return withDefined({ text, style, [action]: structuredClone(value[action]) });
  }
}

function positiveInteger(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw badRequest(`can't parse rich block: table cell "${field}" must be a positive Integer`);
  }
  return value;
}

/** The object without its undefined fields, as Telegram leaves absent fields out. */
function withDefined(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
