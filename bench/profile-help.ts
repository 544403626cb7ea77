/**
 * A CPU profile of the full bot answering `/help` (the workload of the CPU-per-update bench):
 * `node --import tsx --cpu-prof --cpu-prof-dir=<dir> bench/profile-help.ts`, then
 * `npx tsx bench/profile-summary.ts <dir>/*.cpuprofile` reads the buckets.
 */
import { chatIds, englishChat, installFakeTelegram, startFullBot, UpdateFactory } from './support.js';

const UPDATES = Number(process.env.PROFILE_UPDATES ?? 40_000);
const telegram = installFakeTelegram();
telegram.record = false;
const chats = chatIds(50, 7);
const full = await startFullBot(chats);
const updates = new UpdateFactory();
try {
  for (let i = 0; i < UPDATES; i++) {
    const index = i % chats.length;
    await full.bot.handleUpdate(updates.text(chats[index] ?? 0, '/help', englishChat(index) ? 'en' : 'ru'));
  }
} finally {
  await full.close();
  telegram.restore();
}
