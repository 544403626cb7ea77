// Telegram's formatting as a phone draws it: a text and its entities (the server parsed the bot's
// HTML into them, as Telegram does) become DOM nodes. Text is only ever added as text, never as HTML.

const TAGS = {
  bold: 'strong',
  italic: 'em',
  underline: 'u',
  strikethrough: 's',
  code: 'code',
  blockquote: 'blockquote',
  expandable_blockquote: 'blockquote',
};

function elementFor(entity, text) {
  if (entity.type === 'text_link' || entity.type === 'url') {
    const link = document.createElement('a');
    link.href = entity.type === 'url' ? text.slice(entity.offset, entity.offset + entity.length) : entity.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    return link;
  }
  if (entity.type === 'text_mention') {
    const mention = document.createElement('span');
    mention.className = 'mention';
    return mention;
  }
  if (entity.type === 'pre') {
    const pre = document.createElement('pre');
    return pre;
  }
  if (entity.type === 'spoiler') {
    const spoiler = document.createElement('span');
    spoiler.className = 'spoiler';
    spoiler.addEventListener('click', () => spoiler.classList.add('shown'));
    return spoiler;
  }
  const element = document.createElement(TAGS[entity.type] ?? 'span');
  if (entity.type === 'expandable_blockquote') element.className = 'expandable';
  return element;
}

/** Text with its entities as DOM nodes (offsets in UTF-16 units, as JavaScript strings count). */
function renderRange(parent, text, entities, from, to) {
  let position = from;
  for (let i = 0; i < entities.length; i += 1) {
    const entity = entities[i];
    if (entity.offset >= to) break;
    if (entity.offset < position) continue;
    if (entity.offset > position) parent.append(text.slice(position, entity.offset));
    const end = Math.min(entity.offset + entity.length, to);
    const inner = entities
      .slice(i + 1)
      .filter((e) => e.offset >= entity.offset && e.offset + e.length <= end);
    const element = elementFor(entity, text);
    renderRange(element, text, inner, entity.offset, end);
    parent.append(element);
    position = end;
  }
  if (position < to) parent.append(text.slice(position, to));
}

export function formatted(text, entities) {
  const body = document.createElement('div');
  body.className = 'text';
  const sorted = [...(entities ?? [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  renderRange(body, text, sorted, 0, text.length);
  return body;
}
