import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { AGENT_VISIBILITIES } from '../../contract/studio';
import type { StudioFailure } from '../../machines/agent-studio-form';
import type { agentStudioMachine } from '../../machines/agent-studio.machine';
import { VISIBILITY_ICON } from './agent-badges';
import { EditorSection, useProblemText } from './editor-fields';
import { useFailureSentence } from './studio-failure';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

/** Who may chat with the agent once published: its author, their organisation, or everyone (after an admin's approval). */
export const VisibilitySection = ({ editor, editable, refusal }: { editor: Editor; editable: boolean; refusal: StudioFailure | null }) => {
  const { t } = useTranslation();
  const visibility = useSelector(editor, (state) => state.context.form.visibility);
  const problem = useSelector(editor, (state) => state.context.problems.visibility);
  const hasOrganisation = useSelector(editor, (state) => state.context.companyId !== null);
  const isAdmin = useSelector(editor, (state) => state.context.isAdmin);
  const problemText = useProblemText();
  const sentence = useFailureSentence();
  const error = problemText(problem) ?? (refusal ? sentence(refusal, 'save') : null);
  return (
    <EditorSection id="studio-visibility" title={t('studio.sections.visibility')}>
      <div role="radiogroup" aria-labelledby="studio-visibility-title" aria-describedby={error ? 'agent-visibility-error' : undefined} className="flex flex-col gap-2">
        {AGENT_VISIBILITIES.map((value) => {
          const unavailable = value === 'organisation' && !hasOrganisation && visibility !== 'organisation';
          const hint =
            value === 'public' ? t(isAdmin ? 'studio.visibilityHint.publicAdmin' : 'studio.visibilityHint.public') : t(`studio.visibilityHint.${value}`);
          return (
            <label
              key={value}
              className={`flex items-start gap-3 rounded-lg border p-3 ${visibility === value ? 'border-accent bg-accent/5' : 'border-line'} ${unavailable ? 'opacity-60' : 'cursor-pointer'}`}
            >
              <input
                type="radio"
                name="agent-visibility"
                value={value}
                className="mt-1 h-4 w-4 shrink-0 accent-[rgb(var(--c-accent))]"
                checked={visibility === value}
                disabled={!editable || unavailable}
                onChange={() => editor.send({ type: 'field.change', patch: { visibility: value } })}
              />
              <span className="flex min-w-0 flex-col gap-0.5">
                <span className="flex items-center gap-2 font-medium">
                  <span className={`${VISIBILITY_ICON[value]} shrink-0 text-muted`} aria-hidden="true" />
                  {t(`studio.visibility.${value}`)}
                </span>
                <span className="text-sm text-muted">{unavailable ? t('studio.visibilityHint.noOrganisation') : hint}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id="agent-visibility-error" role="alert" className="m-0 flex items-center gap-1 text-sm text-danger">
          <span className="i-lucide-triangle-alert shrink-0" aria-hidden="true" />
          {error}
        </p>
      )}
    </EditorSection>
  );
};
