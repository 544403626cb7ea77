// A rich message (Bot API 10.1) as a phone draws it, block by block: headings as real <h1>–<h6>,
// paragraphs, tables (rich-table.js), lists with their labels, collapsible details, quotations,
// preformatted text, dividers, footers and rows of buttons. Inline formatting is rich-text.js.

import { buttonElement } from './buttons.js';
import { richTable } from './rich-table.js';
import { appendRichText, plainText } from './rich-text.js';

function element(tag, className) {
  const created = document.createElement(tag);
  if (className) created.className = className;
  return created;
}

function withText(tag, className, text, message) {
  return appendRichText(element(tag, className), text, message);
}

function credit(parent, value, message) {
  if (value !== undefined) parent.append(withText('cite', '', value, message));
  return parent;
}

function list(block, message) {
  const box = element('ul', 'rich-list');
  for (const item of block.items ?? []) {
    const entry = element('li');
    const label = element('span', 'label');
    label.textContent = item.has_checkbox ? (item.is_checked ? '☑' : '☐') : item.label;
    entry.append(label, blocks(item.blocks, message));
    box.append(entry);
  }
  return box;
}

function details(block, message) {
  const box = element('details', 'rich-details');
  box.open = block.is_open === true;
  box.append(withText('summary', '', block.summary, message), blocks(block.blocks, message));
  return box;
}

function buttons(block, message) {
  const box = element('div', 'keyboard rich-buttons');
  const row = element('div', 'row');
  if (block.align)
    row.style.justifyContent = { left: 'flex-start', center: 'center', right: 'flex-end' }[block.align];
  row.append(...block.buttons.map((button) => buttonElement(message, button, plainText(button.text))));
  box.append(row);
  return box;
}

/** One block as its element (a kind the page does not know is left out). */
function block(value, message) {
  switch (value.type) {
    case 'paragraph':
      return withText('p', 'rich-paragraph', value.text, message);
    case 'heading':
      return withText(`h${Math.min(6, Math.max(1, value.size ?? 1))}`, 'rich-heading', value.text, message);
    case 'pre': {
      const pre = element('pre');
      if (value.language) pre.dataset.language = value.language;
      pre.append(withText('code', '', value.text, message));
      return pre;
    }
    case 'footer':
      return withText('footer', 'rich-footer', value.text, message);
    case 'divider':
      return element('hr');
    case 'mathematical_expression':
      return withText('code', 'math', value.expression, message);
    case 'list':
      return list(value, message);
    case 'blockquote':
      return credit(blocks(value.blocks, message, element('blockquote')), value.credit, message);
    case 'expandable_blockquote':
    case 'pullquote':
      return credit(withText('blockquote', value.type, value.text, message), value.credit, message);
    case 'table':
      return richTable(value, message);
    case 'details':
      return details(value, message);
    case 'map':
      return withText('p', 'rich-map', `📍 ${value.location.latitude}, ${value.location.longitude}`, message);
    case 'buttons':
      return buttons(value, message);
    case 'collage':
    case 'slideshow':
      return blocks(value.blocks, message, element('div', value.type));
    default:
      return document.createTextNode('');
  }
}

function blocks(values, message, into = document.createDocumentFragment()) {
  for (const value of values ?? []) into.append(block(value, message));
  return into;
}

/** The rich message of `message`, as the content of its bubble. */
export function richView(rich, message) {
  const box = element('div', 'rich');
  if (rich.is_rtl) box.dir = 'rtl';
  return blocks(rich.blocks, message, box);
}
