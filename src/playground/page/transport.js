// The page's only ways to its server (web.ts): JSON actions, the state to draw, and the local Bot
// API server's events as Server-Sent Events. Nothing here touches the page.

/** One action (`POST /api/<action>`); a refusal is thrown with the server's words. */
export async function call(action, body) {
  const response = await fetch(`/api/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error ?? response.statusText);
  return answer;
}

/** Who and where, the bot, the sandbox and its open items. */
export async function fetchState() {
  return (await fetch('/api/state')).json();
}

/** Every event from the first on, then each as it happens: a page opened late still sees it all. */
export function listen(onEvent) {
  const events = new EventSource('/api/events?after=0');
  events.addEventListener('message', (message) => onEvent(JSON.parse(message.data)));
}
