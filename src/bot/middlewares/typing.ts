import type { PartnerApi } from '../../api/index.js';

/** Telegram shows "typing…" for about 5 s; repeating every 4 s keeps it on while the provider works. */
export const TYPING_REPEAT_MS = 4_000;

/**
 * "typing…" for one update: started by the first provider call, before that call leaves, and
 * repeated until the update's handling ends. A chat action that reaches Telegram after the reply
 * would leave "typing…" showing for seconds under the answer, so it is sent only ahead of the
 * first provider call, and the repeat stops the moment the update is done.
 */
export class UpdateTyping {
  private started: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(private readonly send: () => Promise<unknown>) {}

  /** Shows "typing…" once per update (later calls reuse the first); never fails the caller. */
  start(): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.started ??= this.send().then(
      () => this.repeat(),
      () => undefined,
    );
    return this.started;
  }

  private repeat() {
    if (this.ended) return;
    this.timer = setInterval(() => {
      this.send().catch(() => undefined);
    }, TYPING_REPEAT_MS);
    // A chat action must never keep the process alive on shutdown.
    this.timer.unref();
  }

  /** The update's handler is done: no chat action is sent after this. */
  end() {
    this.ended = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The client with every provider call preceded by `typing.start()`. */
export function withTyping(api: PartnerApi, typing: UpdateTyping): PartnerApi {
  return new Proxy(api, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await typing.start();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
