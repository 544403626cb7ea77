import {
  type BotCall,
  type BotHarness,
  buttonData,
  buttons,
  texts,
  type UserOptions,
} from './bot-harness.js';

/**
 * A partner talking to the bot: type a text, send a file, or tap a button of the last messages by
 * its label. Counts the effort (every message, file and tap is one), as the effort stories do.
 * The harness is reached through a function: a story that restarts the bot swaps it.
 */
export class Conversation<U extends UserOptions = UserOptions> {
  last: BotCall[] = [];
  effort = 0;

  constructor(
    private readonly harness: () => BotHarness,
    readonly user: U,
  ) {}

  /** Types a text; returns every message the bot sent in reply, joined. */
  async say(text: string): Promise<string> {
    this.effort += 1;
    this.last = await this.harness().send(text, this.user);
    return texts(this.last).join('\n');
  }

  async tap(label: string | RegExp): Promise<string> {
    this.effort += 1;
    this.last = await this.harness().press(buttonData(this.last, label), this.user);
    return texts(this.last).join('\n');
  }

  async file(content: string, name: string): Promise<string> {
    this.effort += 1;
    this.last = await this.harness().sendFile(content, name, this.user);
    return texts(this.last).join('\n');
  }

  /** Answers each prompt in turn: `[label]` taps a button, anything else is typed. */
  async answer(...answers: string[]): Promise<string> {
    let reply = '';
    for (const answer of answers) {
      const tap = /^\[(.+)\]$/.exec(answer);
      reply = tap?.[1] ? await this.tap(tap[1]) : await this.say(answer);
    }
    return reply;
  }

  buttonTexts(): string[] {
    return buttons(this.last).map((b) => b.text);
  }
}
