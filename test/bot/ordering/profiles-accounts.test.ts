/*
 * Issue 42: saved customers stay the chat's, usable with any of its accounts — and /requisites
 * says so once the chat holds several accounts (with one, nothing changes).
 */
import { describe, expect, it } from 'vitest';
import { lastText } from '../../helpers/bot-harness.js';
import { useBot } from '../../helpers/use-bot.js';

const { h } = useBot({ per: 'story', connect: ['partner'] });
const CHAT = 424_242;
const SHARED = 'Заказчики общие для всех аккаунтов этого чата';

describe('/requisites with several accounts', () => {
  it('says the saved customers serve every account; with one account it does not', async () => {
    expect(lastText(await h.send('/requisites'))).not.toContain(SHARED);
    await h.chatData.addAccount(CHAT, 'second-partner-token-not-called-0002', 'studio-b.by');
    expect(lastText(await h.send('/requisites'))).toContain(SHARED);
  });
});
