/**
 * Error answers of the sandbox. 400 and 401 carry `{message}` in Russian, like the provider;
 * 403 and 404 answer with an empty body (the description declares no body for them).
 */

export class ApiError extends Error {
  readonly status: number;
  /** The `message` of the JSON body; undefined means an empty body. */
  readonly bodyMessage: string | undefined;

  constructor(status: number, bodyMessage?: string) {
    super(bodyMessage ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyMessage = bodyMessage;
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

export function notFound(): ApiError {
  return new ApiError(404);
}

export function forbidden(): ApiError {
  return new ApiError(403);
}

/** Russian texts shared by several operations. */
export const messages = {
  unauthorized: 'Пользователь не авторизован: API-ключ не передан или недействителен',
  versionMissing: 'Не указан обязательный параметр «version»',
  invalidJson: 'Тело запроса не является корректным JSON',
  bodyNotObject: 'Тело запроса должно быть JSON-объектом',
  contentType: 'Тело запроса должно передаваться в формате JSON (Content-Type: application/json)',
  required: (field: string) => `Поле «${field}» обязательно для заполнения`,
  extraProperty: (field: string) => `Недопустимое свойство «${field}»`,
  notString: (field: string) => `Поле «${field}» должно быть строкой`,
  notInteger: (field: string) => `Поле «${field}» должно быть целым числом`,
  notBoolean: (field: string) => `Поле «${field}» должно быть логическим значением (true или false)`,
  notObject: (field: string) => `Поле «${field}» должно быть объектом`,
  notArray: (field: string) => `Поле «${field}» должно быть массивом`,
  outOfRange: (field: string, min: number, max: number) =>
    `Значение поля «${field}» должно быть целым числом от ${min} до ${max}`,
  invalidFormat: (field: string, expected: string) => `Поле «${field}» имеет неверный формат: ${expected}`,
  arrayLength: (field: string, min: number, max: number) =>
    `Поле «${field}» должно содержать от ${min} до ${max} элементов`,
  pathNotInteger: (name: string) => `Параметр пути «${name}» должен быть целым числом`,
  queryNotInteger: (name: string) => `Параметр «${name}» должен быть целым числом`,
  queryNotDate: (name: string) => `Параметр «${name}» должен быть датой в формате ДД.ММ.ГГГГ`,
  currencyNotFound: (id: number) => `Валюта с идентификатором ${id} не найдена`,
  tariffNotFound: (id: number) => `Тариф с идентификатором ${id} не найден`,
  tariffArchived: (name: string) => `Тариф «${name}» перенесён в архив и недоступен для заказа`,
  tariffWrongKind: (id: number, what: string) =>
    `Тариф с идентификатором ${id} недоступен для заказа ${what}`,
  periodNotSupported: (period: number | string, tariffName: string) =>
    `Период оплаты ${period} не поддерживается для тарифа «${tariffName}»`,
} as const;
