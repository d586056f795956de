import { useTranslation } from 'react-i18next';
import { MODEL_ERRORS } from '../../contract/models';
import { AGENTS_PER_PERSON_MAX, STUDIO_ERRORS, VERSIONS_PER_AGENT_MAX } from '../../contract/studio';
import { refusalKey } from '../../i18n/refusal';
import { UNREADABLE_FILE, type StudioFailure } from '../../machines/agent-studio-form';

export type FailureAction = 'save' | 'publish' | 'preview' | 'export' | 'restore' | 'retire' | 'import' | 'versions' | 'list';

/** The refusals the studio words itself, by the server's reason. */
const BY_REASON: Record<string, string> = {
  [STUDIO_ERRORS.nothingToPublish]: 'studio.refusal.nothingToPublish',
  [STUDIO_ERRORS.retired]: 'studio.refusal.retired',
  [STUDIO_ERRORS.noOrganisation]: 'studio.refusal.noOrganisation',
  [STUDIO_ERRORS.avatarRefused]: 'studio.refusal.avatarRefused',
  [STUDIO_ERRORS.parametersOutOfRange]: 'studio.refusal.parametersOutOfRange',
  [STUDIO_ERRORS.defaultAgent]: 'studio.refusal.defaultAgent',
  [MODEL_ERRORS.unknown]: 'studio.refusal.modelUnknown',
  [UNREADABLE_FILE]: 'studio.refusal.unreadableFile',
};

/**
 * The sentence a person reads for a refused or failed studio call: the studio's own for the
 * refusals it knows (by the server's reason word), else the product's for the status. Never the
 * server's English, never a code.
 */
export const useFailureSentence = () => {
  const { t } = useTranslation();
  return (failure: StudioFailure, action: FailureAction): string => {
    const known = failure.reason ? BY_REASON[failure.reason] : undefined;
    if (known) return t(known);
    if (failure.reason === STUDIO_ERRORS.limitReached) {
      return action === 'publish' ? t('studio.refusal.tooManyVersions', { max: VERSIONS_PER_AGENT_MAX }) : t('studio.refusal.tooManyAgents', { max: AGENTS_PER_PERSON_MAX });
    }
    if (failure.status === 404) return t(action === 'restore' ? 'studio.refusal.versionNotFound' : 'studio.refusal.notFound');
    if (action === 'import' && failure.status === 400) return t('studio.refusal.importRefused');
    if (action === 'import' && failure.status === 413) return t('studio.refusal.importTooLarge');
    return t(refusalKey(failure));
  };
};

/**
 * A refusal said where it happened: what did not happen, then why. The server's own words follow
 * only for a refused form it names no reason for (they name the field).
 */
export const FailureNote = ({ failure, action, id }: { failure: StudioFailure; action: FailureAction; id?: string }) => {
  const { t } = useTranslation();
  const sentence = useFailureSentence();
  const detail = failure.status === 400 && !failure.reason && failure.message ? failure.message : null;
  return (
    <div role="alert" id={id} className="rounded-lg border border-danger/40 bg-danger/5 px-3 py-2 text-sm" data-testid={`failure-${action}`}>
      <p className="m-0 flex items-center gap-1 text-danger">
        <span className="i-lucide-triangle-alert shrink-0" aria-hidden="true" />
        {t(`studio.failed.${action}`)}
      </p>
      <p className="m-0 mt-1">{sentence(failure, action)}</p>
      {detail && <p className="m-0 mt-1 break-words text-xs text-muted">{detail}</p>}
    </div>
  );
};
