// Inline mode: `@bot query` typed in the input asks the bot (an inline query), its answer is a list
// above the input, and a chosen result is posted "via @bot" in the open chat.

import { showError } from './notices.js';
import { $, sender, state } from './state.js';
import { call } from './transport.js';

let inlineTimer;
export function askInline() {
  clearTimeout(inlineTimer);
  const prefix = `@${state.info.bot.username}`;
  const value = $('input').value;
  if (!value.startsWith(prefix)) {
    hideInline();
    return;
  }
  inlineTimer = setTimeout(async () => {
    const query = value.slice(prefix.length).trim();
    const { queryId } = await call('inline', { userId: sender(), query, lang: state.lang });
    state.inlineQueryId = queryId;
    const answered = state.inlineAnswers.get(queryId);
    if (answered) showInline(answered);
  }, 250);
}

/** A "switch inline" button's query in the input, asked at once, as Telegram's apps do. */
export function startInline(query) {
  const input = $('input');
  input.value = `@${state.info.bot.username} ${query}`;
  input.focus();
  askInline();
}

export function showInline(results) {
  const box = $('inline-results');
  box.replaceChildren(
    ...results.map((result) => {
      const option = document.createElement('button');
      option.type = 'button';
      option.setAttribute('role', 'option');
      option.className = 'result';
      const title = document.createElement('strong');
      title.textContent = result.title ?? result.id;
      option.append(title);
      if (result.description) {
        const description = document.createElement('span');
        description.textContent = result.description;
        option.append(description);
      }
      const queryId = state.inlineQueryId;
      option.addEventListener('click', async () => {
        await call('choose', { queryId, resultId: result.id, userId: sender(), chatId: state.chatId }).catch(
          showError,
        );
        $('input').value = '';
        hideInline();
      });
      return option;
    }),
  );
  box.hidden = results.length === 0;
}

export function hideInline() {
  state.inlineQueryId = undefined;
  $('inline-results').hidden = true;
}
