import { useTranslation } from 'react-i18next';
import { DRAFT_COUNT_MAX, KEYWORDS_MAX, POST_LANGUAGES, type Brief } from '../../contract/tasks';

type BriefFormProps = {
  brief: Brief;
  disabled: boolean;
  onChange: (patch: Partial<Brief>) => void;
};

const keywordsOf = (text: string) =>
  text
    .split(/[,，、\n]/)
    .map((keyword) => keyword.trim())
    .filter(Boolean)
    .slice(0, KEYWORDS_MAX);

/** What the post is about, for whom, in which tone, language and keywords: what the writer agent is given. */
export const BriefForm = ({ brief, disabled, onChange }: BriefFormProps) => {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2" disabled={disabled}>
      <legend className="mb-2 text-base font-semibold">{t('operations.brief.title')}</legend>
      <label className="flex flex-col gap-1 text-sm sm:col-span-2">
        {t('operations.brief.topic')}
        <input className="field" value={brief.topic} maxLength={200} placeholder={t('operations.brief.topicPlaceholder')} onChange={(event) => onChange({ topic: event.target.value })} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t('operations.brief.audience')}
        <input className="field" value={brief.audience} maxLength={200} onChange={(event) => onChange({ audience: event.target.value })} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t('operations.brief.tone')}
        <input className="field" value={brief.tone} maxLength={100} onChange={(event) => onChange({ tone: event.target.value })} />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t('operations.brief.keywords')}
        <input
          className="field"
          defaultValue={brief.keywords.join(', ')}
          placeholder={t('operations.brief.keywordsPlaceholder')}
          onBlur={(event) => onChange({ keywords: keywordsOf(event.target.value) })}
          onChange={(event) => onChange({ keywords: keywordsOf(event.target.value) })}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm">
        {t('operations.brief.language')}
        <select className="field" value={brief.language} onChange={(event) => onChange({ language: event.target.value as Brief['language'] })}>
          {POST_LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`operations.languages.${language}`)}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
};

export const DraftCountField = ({ count, disabled, onChange }: { count: number; disabled: boolean; onChange: (count: number) => void }) => {
  const { t } = useTranslation();
  return (
    <label className="flex items-center gap-2 text-sm">
      {t('operations.drafts.count')}
      <select className="field w-20" value={count} disabled={disabled} onChange={(event) => onChange(Number(event.target.value))}>
        {Array.from({ length: DRAFT_COUNT_MAX }, (_, index) => index + 1).map((value) => (
          <option key={value} value={value}>
            {value}
          </option>
        ))}
      </select>
    </label>
  );
};
