import type { ButtonHTMLAttributes } from 'react';

type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-busy'> & {
  busy: boolean;
  /** The icon's class while the button rests (a spinner stands in while busy). */
  icon: string;
  label: string;
  busyLabel: string;
};

/** A button whose action takes a while: its icon spins and its words say what is happening until it is done. */
export const BusyButton = ({ busy, icon, label, busyLabel, type = 'button', ...button }: BusyButtonProps) => (
  <button type={type} {...button} aria-busy={busy || undefined}>
    <span className={busy ? 'i-lucide-loader-circle animate-spin' : icon} aria-hidden="true" />
    {busy ? busyLabel : label}
  </button>
);
