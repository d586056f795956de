import { useTranslation } from 'react-i18next';
import type { AgentVisibility, StudioAgentSummary } from '../../contract/studio';

/* Kept in a .tsx file so UnoCSS finds the class names below when it scans the sources. */
const TONE = {
  quiet: 'bg-raised text-muted',
  live: 'bg-success/15 text-success',
  draft: 'bg-accent/15 text-accent',
  waiting: 'bg-warn/15 text-warn',
  refused: 'bg-danger/10 text-danger',
} as const;

export const VISIBILITY_ICON: Record<AgentVisibility, string> = {
  private: 'i-lucide-lock',
  organisation: 'i-lucide-building-2',
  public: 'i-lucide-globe',
};

type Standing = Pick<StudioAgentSummary, 'published' | 'hasDraft' | 'retired' | 'approval' | 'versionId'>;
type BadgeKind = 'retired' | 'live' | 'neverPublished' | 'draft' | 'pending' | 'rejected';

const TONE_OF: Record<BadgeKind, keyof typeof TONE> = {
  retired: 'quiet',
  live: 'live',
  neverPublished: 'quiet',
  draft: 'draft',
  pending: 'waiting',
  rejected: 'refused',
};

/** Where an agent stands, as badges: live or not, a draft beside it, its last approval. */
export const badgesOf = (agent: Standing): BadgeKind[] => {
  if (agent.retired) return ['retired'];
  const kinds: BadgeKind[] = [agent.published ? 'live' : 'neverPublished'];
  if (agent.hasDraft && agent.published) kinds.push('draft');
  if (agent.approval === 'pending') kinds.push('pending');
  if (agent.approval === 'rejected') kinds.push('rejected');
  return kinds;
};

export const StandingBadges = ({ agent }: { agent: Standing }) => {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap items-center gap-1">
      {badgesOf(agent).map((kind) => (
        <span key={kind} data-badge data-testid={`badge-${kind}`} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${TONE[TONE_OF[kind]]}`}>
          {t(`studio.badge.${kind}`)}
        </span>
      ))}
    </span>
  );
};

export const VisibilityLabel = ({ visibility }: { visibility: AgentVisibility }) => {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-1 text-xs text-muted">
      <span className={`${VISIBILITY_ICON[visibility]} shrink-0`} aria-hidden="true" />
      {t(`studio.visibility.${visibility}`)}
    </span>
  );
};
