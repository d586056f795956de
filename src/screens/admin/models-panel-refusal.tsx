import { useTranslation } from 'react-i18next';
import { MODEL_ERRORS } from '../../contract/models';
import type { RegistryFailure } from '../../machines/admin-models.machine';
import type { RegistryWhy } from '../../machines/admin-models-refusals';
import { RefusalAlert } from './admin-widgets';

type Sentence = { key: string; values?: Record<string, unknown> };

const ADDRESS_KINDS: readonly RegistryWhy['kind'][] = ['privateNetwork', 'notPublic', 'malformedAddress', 'unresolved'];

/** Why a provider could not be read for its models, from what the server said of it. */
const discoverySentence = (why: RegistryWhy | undefined): Sentence => {
  if (!why) return { key: 'admin.models.refusals.discovery.other' };
  if (why.kind === 'httpStatus') return { key: `admin.models.refusals.discovery.${why.status === 401 || why.status === 403 ? 'keyRefused' : 'httpStatus'}`, values: { status: why.status } };
  if (ADDRESS_KINDS.includes(why.kind)) return { key: `admin.models.refusals.address.${why.kind}` };
  return { key: `admin.models.refusals.discovery.${why.kind}` };
};

/** The registry's own refusals in the admin's language; any other is said by its status. */
const sentenceOf = (failure: RegistryFailure, isModelForm: boolean): Sentence | null => {
  switch (failure.reason) {
    case MODEL_ERRORS.addressRefused:
      return { key: `admin.models.refusals.address.${failure.why && ADDRESS_KINDS.includes(failure.why.kind) ? failure.why.kind : 'other'}` };
    case MODEL_ERRORS.discoveryFailed:
      return discoverySentence(failure.why);
    case MODEL_ERRORS.noSecretKey:
      return { key: 'admin.models.refusals.noSecretKey' };
    case MODEL_ERRORS.inUse:
      return { key: failure.during === 'deleteProvider' ? 'admin.models.refusals.providerInUse' : 'admin.models.refusals.modelInUse' };
    case MODEL_ERRORS.readOnly:
      return { key: 'admin.models.refusals.readOnly' };
    case MODEL_ERRORS.unknown:
      return { key: 'admin.models.refusals.notEnabled' };
  }
  // A model's name at its provider is its own: the server's one 409 without a reason.
  if (failure.status === 409 && (failure.during === 'addDiscovered' || (failure.during === 'save' && isModelForm))) return { key: 'admin.models.refusals.duplicateModel' };
  return null;
};

/** What did not happen, then why, beside what was refused. */
export const RegistryRefusal = ({ failure, isModelForm = false }: { failure: RegistryFailure; isModelForm?: boolean }) => {
  const { t } = useTranslation();
  const sentence = sentenceOf(failure, isModelForm);
  const what = failure.during === 'save' ? (isModelForm ? 'saveModel' : 'saveProvider') : failure.during;
  const said = sentence && failure.status !== undefined ? { [failure.status]: t(sentence.key, sentence.values) } : {};
  return <RefusalAlert failure={failure} what={t(`admin.models.failed.${what}`)} said={said} />;
};
