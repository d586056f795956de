import type { ReactNode } from 'react';

/** A page or panel still waiting for its data: a spinner and what it is waiting for, announced politely. */
export const LoadingStatus = ({ children, className = '' }: { children: ReactNode; className?: string }) => (
  <p role="status" className={`text-muted ${className}`.trim()}>
    <span className="i-lucide-loader-circle me-2 animate-spin" aria-hidden="true" />
    {children}
  </p>
);
