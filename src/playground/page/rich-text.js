// Rich text (Bot API 10.1's RichText) as a phone draws it: a string, an array of rich texts, or a
// formatting object (bold, italic, code, a link, a mention…) as the element it stands for. Text is
// only ever added as text, never as HTML, and only http(s), tg, mailto and tel links are links.

import { buttonElement } from './buttons.js';

const TAGS = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  strikethrough: 's',
  subscript: 'sub',
  superscript: 'sup',
  marked: 'mark',
  code: 'code',
};

/** A rich text's plain text: a rich button's label, as the server reads it too. */
export function plainText(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(plainText).join('');
  if (!value || typeof value !== 'object') return '';
  if (value.type === 'custom_emoji') return value.alternative_text ?? '';
  if (value.type === 'mathematical_expression') return value.expression ?? '';
  if (value.type === 'button') return plainText(value.button?.text);
  return plainText(value.text);
}

function link(href) {
  if (typeof href !== 'string' || !/^(https?:|tg:|mailto:|tel:)/i.test(href)) {
    return document.createElement('span');
  }
  const element = document.createElement('a');
  element.href = href;
  element.target = '_blank';
  element.rel = 'noopener noreferrer';
  return element;
}

function formatted(value, message) {
  const type = value.type;
  let element;
  if (TAGS[type]) element = document.createElement(TAGS[type]);
  else if (type === 'url') element = link(value.url);
  else if (type === 'email_address') element = link(`mailto:${value.email_address}`);
  else if (type === 'phone_number') element = link(`tel:${value.phone_number}`);
  else if (type === 'custom_emoji') return document.createTextNode(value.alternative_text ?? '');
  else if (type === 'button') return buttonElement(message, value.button, plainText(value.button.text));
  else if (type === 'mathematical_expression') {
    element = document.createElement('code');
    element.className = 'math';
    element.textContent = value.expression;
    return element;
  } else if (type === 'date_time') {
    element = document.createElement('time');
    element.dateTime = new Date(value.unix_time * 1000).toISOString();
  } else if (type === 'spoiler') {
    element = document.createElement('span');
    element.className = 'spoiler';
    element.addEventListener('click', () => element.classList.add('shown'));
  } else {
    // Mentions, hashtags, commands, anchors, references: their text, marked by their kind.
    element = document.createElement('span');
    element.className = type === 'text_mention' || type === 'mention' ? 'mention' : `rich-${type}`;
  }
  appendRichText(element, value.text, message);
  return element;
}

/** Append a rich text to an element; `message` is the one its buttons belong to. */
export function appendRichText(parent, value, message) {
  if (value === undefined || value === null) return parent;
  if (typeof value === 'string') parent.append(value);
  else if (Array.isArray(value)) for (const part of value) appendRichText(parent, part, message);
  else if (typeof value === 'object') parent.append(formatted(value, message));
  return parent;
}
