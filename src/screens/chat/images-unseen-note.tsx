import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { agentDetailLogic } from '../../app/agents-actors';
import { useFollow } from '../../app/use-follow';
import { useScreenActor } from '../../app/use-screen-actor';

/** Shown while an image is attached: says, before sending, that this agent's model will not see it. */
export const ImagesUnseenNote = ({ agentId }: { agentId: string }) => {
  const { t } = useTranslation();
  const detail = useScreenActor(agentDetailLogic, { input: { agentId } });
  const unseen = useSelector(detail, (state) => state.context.agent !== null && state.context.agent.vision !== true);
  useFollow(detail, { type: 'agent.change', agentId });
  if (!unseen) return null;
  return (
    <p role="status" className="mb-2 flex items-center gap-1 text-sm text-muted" data-testid="images-unseen">
      <span className="i-lucide-eye-off" aria-hidden="true" />
      {t('attachments.imagesUnseen')}
    </p>
  );
};
