import { useTranslation } from 'react-i18next';
import { AGENT_CATEGORIES } from '../../contract/agents';

const chip =
  'rounded-full border px-3 py-1 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-accent focus-visible:outline-offset-2';

/** The market's categories as toggle buttons; "All" clears the filter. */
export const CategoryFilter = ({ selected, onPick }: { selected: string | null; onPick: (category: string | null) => void }) => {
  const { t } = useTranslation();
  const options: { value: string | null; label: string }[] = [
    { value: null, label: t('agents.categoryAll') },
    ...AGENT_CATEGORIES.map((value) => ({ value, label: t(`agents.category.${value}`) })),
  ];
  return (
    <div role="group" aria-label={t('agents.categories')} className="flex flex-wrap gap-2" data-testid="agent-categories">
      {options.map(({ value, label }) => {
        const pressed = value === selected;
        return (
          <button
            key={value ?? 'all'}
            type="button"
            aria-pressed={pressed}
            className={`${chip} ${pressed ? 'border-accent bg-accent text-accent-fg' : 'border-line bg-surface text-fg hover:border-accent'}`}
            onClick={() => onPick(value)}
          >
            {label}
          </button>
        );
      })}
    </div>
  );
};
