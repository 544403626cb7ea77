/**
 * Who is in the playground: a partner, the partner's team in a group, and a client to share an
 * invoice with. Fixed ids, so a restart finds the same chats in the bot's kept data.
 */
import { BOT_FIRST_NAME, type ChatProfile, type UserProfile } from './bot-api/index.js';

export interface PlaygroundPerson extends UserProfile {
  /** What the page calls this person's part. */
  role: 'partner' | 'tech' | 'newcomer' | 'client';
}

export interface PlaygroundChat {
  id: number;
  kind: 'private' | 'group';
  /** Its Telegram title (what the bot sees), shown on the Russian page. */
  title: string;
  /** Its name on the English page, where it differs. */
  titleEn?: string;
  /** Who writes in this chat (the first one by default). */
  members: number[];
}

export const PARTNER_ID = 100_001;
const TECH_ID = 100_002;
const NEWCOMER_ID = 100_003;
const CLIENT_ID = 100_004;
const TEAM_GROUP_ID = -4_000_000_001;

export const PEOPLE: readonly PlaygroundPerson[] = [
  { id: PARTNER_ID, first_name: 'Андрей', last_name: 'Партнёр', username: 'andrey_partner', role: 'partner' },
  { id: TECH_ID, first_name: 'Ольга', last_name: 'Техник', username: 'olga_tech', role: 'tech' },
  { id: NEWCOMER_ID, first_name: 'Иван', last_name: 'Новичок', username: 'ivan_new', role: 'newcomer' },
  { id: CLIENT_ID, first_name: 'Мария', last_name: 'Клиент', username: 'maria_client', role: 'client' },
];

/** The team group's members: the local Bot API server sends ephemeral messages there to them only. */
const TEAM_MEMBERS = [PARTNER_ID, TECH_ID, NEWCOMER_ID];

export const TEAM_GROUP: ChatProfile = {
  id: TEAM_GROUP_ID,
  type: 'group',
  title: 'Команда студии',
  members: TEAM_MEMBERS,
};

/**
 * The partner's chat with the bot; the team's group; the partner's chat with a client, where an
 * invoice is shared through inline mode (`@bot …` in the input).
 */
export const CHATS: readonly PlaygroundChat[] = [
  // A private chat with a bot is named as the bot is (its getMe first_name), as Telegram names it.
  { id: PARTNER_ID, kind: 'private', title: BOT_FIRST_NAME, members: [PARTNER_ID] },
  {
    id: TEAM_GROUP_ID,
    kind: 'group',
    title: TEAM_GROUP.title,
    titleEn: 'Studio team',
    members: TEAM_MEMBERS,
  },
  { id: CLIENT_ID, kind: 'private', title: 'Мария Клиент', titleEn: 'Maria (client)', members: [PARTNER_ID] },
];
