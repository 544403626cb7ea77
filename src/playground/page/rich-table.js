// A rich message's table (Bot API 10.1) as a real <table>: its caption, a first row of header
// cells as the table's head (so each is a column header), header cells elsewhere as <th>, cells
// spanning columns and rows, aligned as the bot said; borders, stripes and compact cells as classes.

import { appendRichText } from './rich-text.js';

function cellElement(cell, message, inHead) {
  const element = document.createElement(cell.is_header ? 'th' : 'td');
  if (cell.is_header) element.scope = inHead ? 'col' : 'row';
  if (cell.colspan > 1) element.colSpan = cell.colspan;
  if (cell.rowspan > 1) element.rowSpan = cell.rowspan;
  element.style.textAlign = cell.align ?? 'left';
  element.style.verticalAlign = cell.valign === 'middle' ? 'middle' : (cell.valign ?? 'top');
  // A cell with no text is there but invisible, as Telegram draws it.
  if (cell.text === undefined) element.className = 'invisible';
  else appendRichText(element, cell.text, message);
  return element;
}

function rowElement(row, message, inHead) {
  const element = document.createElement('tr');
  element.append(...row.map((cell) => cellElement(cell, message, inHead)));
  return element;
}

export function richTable(block, message) {
  const table = document.createElement('table');
  table.className = 'rich-table';
  for (const flag of ['is_bordered', 'is_striped', 'is_compact']) {
    if (block[flag]) table.classList.add(flag.slice(3));
  }
  if (block.caption !== undefined) {
    table.append(appendRichText(document.createElement('caption'), block.caption, message));
  }
  const rows = block.cells ?? [];
  const headed = rows.length > 1 && rows[0].length > 0 && rows[0].every((cell) => cell.is_header);
  if (headed) {
    const head = document.createElement('thead');
    head.append(rowElement(rows[0], message, true));
    table.append(head);
  }
  const body = document.createElement('tbody');
  body.append(...rows.slice(headed ? 1 : 0).map((row) => rowElement(row, message, false)));
  table.append(body);
  // A table wider than the bubble scrolls inside it, as Telegram's apps do, not the whole chat.
  const scroller = document.createElement('div');
  scroller.className = 'rich-table-scroll';
  scroller.append(table);
  return scroller;
}
