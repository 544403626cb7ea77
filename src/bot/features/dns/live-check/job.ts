/** A live check's run as its caller describes it, and one round's findings per server. */
import type { InlineKeyboardMarkup } from 'telegraf/types';
import type { PartnerApi } from '../../../../api/index.js';
import type { Expectation, Sighting } from '../../../../core/dns-check.js';
import type { Translate } from '../../../kit/i18n.js';
import type { Screen } from '../../../kit/screen.js';

export interface LiveCheckJob {
  chatId: number;
  messageId: number;
  /** The message's HTML as sent; the check's lines are added below it. */
  html: string;
  /**
   * The screen the message shows when it went as a rich message: the check's lines are added to
   * it as a paragraph, and the edit is a rich one (an HTML edit would turn it into plain text).
   */
  screen?: Screen | undefined;
  /** The change only deletes records: its lines say the servers no longer answer with them. */
  gone?: boolean;
  /** The message's buttons, kept when it is edited. */
  keyboard?: InlineKeyboardMarkup | undefined;
  /** The chat's language. */
  t: Translate;
  /** The chat's partner API (the domain order's name servers and records). */
  api: PartnerApi;
  orderId: number;
  /** What every server should answer, given the domain (ASCII); on demand, read from the records. */
  expect(domain: string): Promise<Expectation[]>;
  /**
   * `change`: one line about the change, added below the message ("✅ Видно на …").
   * `report`: what each server answers (the `/dns <domain> check` message).
   */
  style: 'change' | 'report';
}

/** One round's findings per server: its sighting and, for the report, what it answered. */
export interface ServerRound {
  server: string;
  sighting: Sighting;
  values: string[] | undefined;
}
