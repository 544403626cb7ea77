/*
 * Team chats (docs/team-chats.md): the roles of a group bound to a partner's token and what
 * each may do. Pure: the bot maps its commands and buttons onto these capabilities.
 */

/** A member's role in a bound group. */
export type Role = 'owner' | 'admin' | 'accountant' | 'tech' | 'viewer';

/** What a command or a button needs. */
export type Capability =
  /** Help, language-free basics, the team screen itself (it checks the owner on its own). */
  | 'anyone'
  /** Look-ups: prices, tariffs, zones, orders. */
  | 'lookup'
  /** Invoices, payments, statements, their links, notifications. */
  | 'billing'
  /** DNS, name servers, certificate, domain checks. */
  | 'tech'
  /** Everything else of the partner's account: new orders, requisites, the group's language. */
  | 'all'
  /** Roles and the binding itself (and forgetting the group). */
  | 'roles';

interface RoleEntry {
  readonly capabilities: readonly Capability[];
  /** Whether the owner may give this role to a member (there is one owner: the binding partner). */
  readonly assignable: boolean;
  /** Words that name the role in `/team <role>`, in both languages (lower case). */
  readonly words: readonly string[];
}

/** Every capability, from the least to the most guarded. */
export const CAPABILITIES: readonly Capability[] = ['anyone', 'lookup', 'billing', 'tech', 'all', 'roles'];

/** The roles, from the most to the least trusted. */
export const ROLES = {
  owner: { capabilities: CAPABILITIES, assignable: false, words: ['owner', 'владелец'] },
  admin: {
    capabilities: CAPABILITIES.filter((c) => c !== 'roles'),
    assignable: true,
    words: ['admin', 'админ', 'администратор'],
  },
  accountant: {
    capabilities: ['anyone', 'lookup', 'billing'],
    assignable: true,
    words: ['accountant', 'бухгалтер'],
  },
  tech: { capabilities: ['anyone', 'lookup', 'tech'], assignable: true, words: ['tech', 'техник'] },
  viewer: { capabilities: ['anyone', 'lookup'], assignable: true, words: ['viewer', 'зритель'] },
} as const satisfies Record<Role, RoleEntry>;

/** Every role, most trusted first. */
export const ROLE_LIST = Object.keys(ROLES) as Role[];

/** The role a member has until the owner gives another. */
export const DEFAULT_ROLE: Role = 'viewer';

export const isRole = (word: unknown): word is Role => typeof word === 'string' && Object.hasOwn(ROLES, word);

export function can(role: Role, capability: Capability): boolean {
  const granted: readonly Capability[] = ROLES[role].capabilities;
  return granted.includes(capability);
}

/** Roles that may do what `capability` allows, least trusted first (as a refusal lists them). */
export function rolesAllowed(capability: Capability): Role[] {
  return ROLE_LIST.filter((role) => can(role, capability)).reverse();
}

/** The assignable role a word names (`техник`, `Admin`), or undefined. */
export function parseRoleWord(word: string): Role | undefined {
  const lower = word.trim().toLowerCase();
  return ROLE_LIST.find((role) => {
    const entry: RoleEntry = ROLES[role];
    return entry.assignable && entry.words.includes(lower);
  });
}

/** Assignable roles in the order a role button cycles through them. */
const CYCLE: readonly Role[] = ['viewer', 'accountant', 'tech', 'admin'];

/** The role a member's button offers next. */
export function nextRole(role: Role): Role {
  const index = CYCLE.indexOf(role);
  return CYCLE[(index + 1) % CYCLE.length] ?? DEFAULT_ROLE;
}

/** A bound group's team: who bound it and everyone's role (user ids as strings). */
export interface Team {
  owner: number;
  members: Record<string, Role>;
}
