/**
 * What a Telegram client sees happen, as the local Bot API server reports it: the playground's page
 * follows these to draw the chats as a phone would, and tests can wait on them.
 */

type Json = Record<string, unknown>;

export type ChatEvent =
  /** A new message in a chat: the user's (as sent) or the bot's (as Telegram stores it). */
  | { seq: number; type: 'message'; chatId: number; message: Json }
  /** A message after an edit of its text, caption or keyboard (inline-mode messages included). */
  | { seq: number; type: 'edited'; chatId: number; message: Json }
  | { seq: number; type: 'deleted'; chatId: number; messageId: number }
  /**
   * An ephemeral message, new or edited (`message_id` 0, keyed by `ephemeral_message_id`): only the
   * member `visibleTo` sees it (the bot too); for them it is shown in place of `replaces`.
   */
  | {
      seq: number;
      type: 'ephemeral';
      chatId: number;
      message: Json;
      visibleTo: number;
      replaces?: { messageId: number } | { ephemeralMessageId: number };
    }
  | { seq: number; type: 'ephemeral-deleted'; chatId: number; ephemeralMessageId: number; visibleTo: number }
  /** answerCallbackQuery with a text: a toast, or an alert the user must close. */
  | { seq: number; type: 'toast'; chatId: number; text: string; showAlert: boolean; url?: string }
  /** sendChatAction: "typing…" and the like, for about five seconds. */
  | { seq: number; type: 'action'; chatId: number; action: string; threadId?: number }
  /** answerInlineQuery: the results a user sees above the input. */
  | { seq: number; type: 'inline-results'; queryId: string; userId: number; results: Json[]; button?: Json }
  /** A message asking for a reply (ForceReply): the client answers it as a reply. */
  | { seq: number; type: 'force-reply'; chatId: number; messageId: number }
  /** A reply keyboard under the input (`keyboard` absent: removed). */
  | { seq: number; type: 'reply-keyboard'; chatId: number; keyboard?: Json[][] }
  /** setMyCommands, setMyDescription, setMyShortDescription or setChatMenuButton changed what a user is shown. */
  | { seq: number; type: 'profile'; what: 'commands' | 'description' | 'short_description' | 'menu_button' };

/** Distributes `Omit` over the union, so each event keeps its own fields. */
export type NewChatEvent = ChatEvent extends infer E ? (E extends ChatEvent ? Omit<E, 'seq'> : never) : never;

/** The ordered events, numbered from 1, with the last `keep` of them remembered for late readers. */
export class EventLog {
  private readonly events: ChatEvent[] = [];
  private readonly listeners = new Set<(event: ChatEvent) => void>();
  private seq = 0;

  constructor(private readonly keep = 5_000) {}

  emit(event: NewChatEvent): void {
    this.seq += 1;
    const numbered = { ...structuredClone(event), seq: this.seq } as ChatEvent;
    this.events.push(numbered);
    if (this.events.length > this.keep) this.events.splice(0, this.events.length - this.keep);
    for (const listener of this.listeners) listener(numbered);
  }

  since(seq: number): ChatEvent[] {
    return this.events.filter((e) => e.seq > seq);
  }

  subscribe(listener: (event: ChatEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
