/**
 * What a person may do: a `member` chats; an `operator` also runs the operations area of their
 * organisation; an `admin` runs the whole instance (the console at /admin) and operates too.
 */
export const ROLES = ['member', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What the role checks read of a person (the user info's fields); no schema, so the first page carries none. */
type Person = { role?: Role | undefined; companyId?: string | undefined };

/** Whether the header offers the operations area: its operators and admins (the door still checks). */
export const mayOperate = (user: Person): boolean =>
  user.role === undefined || ((user.role === 'operator' || user.role === 'admin') && user.companyId !== undefined);
/** Whether the header offers the admin console. */
export const mayAdminister = (user: Pick<Person, 'role'>): boolean => user.role === 'admin';
