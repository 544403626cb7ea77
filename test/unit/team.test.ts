import { describe, expect, it } from 'vitest';
import { can, nextRole, parseRoleWord, ROLE_LIST, rolesAllowed } from '../../src/core/team.js';

describe('team roles', () => {
  it('names assignable roles in both languages, never the owner', () => {
    expect(parseRoleWord('техник')).toBe('tech');
    expect(parseRoleWord('Admin')).toBe('admin');
    expect(parseRoleWord('админ')).toBe('admin');
    expect(parseRoleWord('бухгалтер')).toBe('accountant');
    expect(parseRoleWord('viewer')).toBe('viewer');
    expect(parseRoleWord('владелец')).toBeUndefined();
    expect(parseRoleWord('owner')).toBeUndefined();
    expect(parseRoleWord('boss')).toBeUndefined();
  });

  it('lists who may do what, least trusted first', () => {
    expect(rolesAllowed('billing')).toEqual(['accountant', 'admin', 'owner']);
    expect(rolesAllowed('tech')).toEqual(['tech', 'admin', 'owner']);
    expect(rolesAllowed('roles')).toEqual(['owner']);
    expect(rolesAllowed('lookup')).toEqual(['viewer', 'tech', 'accountant', 'admin', 'owner']);
    expect(can('accountant', 'tech')).toBe(false);
    expect(can('tech', 'billing')).toBe(false);
  });

  it('a role button cycles through the assignable roles only', () => {
    const seen = new Set(ROLE_LIST.filter((r) => r !== 'owner').map(nextRole));
    expect([...seen].sort()).toEqual(['accountant', 'admin', 'tech', 'viewer']);
    expect(nextRole('owner')).toBe('viewer');
  });
});
