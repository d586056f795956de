import type { ReactNode } from 'react';

/** A refusal on the login pages: what failed, in bold when there is more to say, then why. */
export const LoginAlert = ({ title, children }: { title?: ReactNode; children?: ReactNode }) => (
  <div role="alert" className="rounded-lg border border-danger p-3 text-sm text-danger">
    {title && <strong className="block">{title}</strong>}
    {children && <span>{children}</span>}
  </div>
);
