import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export type LoginTab = { id: string; label: string; panel: ReactNode };

/**
 * Tabs as the ARIA authoring practices describe them: a tablist of buttons, arrow keys (and
 * Home / End) move between them, only the selected tab is in the Tab order, and only the
 * selected panel is rendered (so a hidden scan code never polls).
 */
export const LoginTabs = ({ label, tabs, selected, onSelect }: { label: string; tabs: LoginTab[]; selected: string; onSelect: (id: string) => void }) => {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const move = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    buttons.current.get(tab.id)?.focus();
  };
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0]!;
  return (
    <>
      <div role="tablist" aria-label={label} className="mt-4 flex gap-1 border-b border-line">
        {tabs.map((tab, index) => {
          const active = tab.id === current.id;
          return (
            <button
              key={tab.id}
              ref={(node) => {
                if (node) buttons.current.set(tab.id, node);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`login-tab-${tab.id}`}
              aria-selected={active}
              aria-controls={`login-panel-${tab.id}`}
              tabIndex={active ? 0 : -1}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${active ? 'border-accent text-fg' : 'border-transparent text-muted hover:text-fg'}`}
              onClick={() => onSelect(tab.id)}
              onKeyDown={(event) => move(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {/* not labelled by its tab: a panel named "Password" would answer to the password field's label too */}
      <div role="tabpanel" id={`login-panel-${current.id}`} tabIndex={0} className="focus-visible:outline-none">
        {current.panel}
      </div>
    </>
  );
};
