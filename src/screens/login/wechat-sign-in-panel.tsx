import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useWechatActors } from '../../app/login-actors';
import { LoginAlert } from './login-alert';

/** Inside WeChat's in-app browser the login page is WeChat's authorisation, shown as its progress. */
export const WechatSignInPanel = () => {
  const { t } = useTranslation();
  const { wechatLogin } = useWechatActors();
  const failed = useSelector(wechatLogin, (state) => state.matches({ wechat: 'failed' }));
  const failure = useSelector(wechatLogin, (state) => state.context.failure);
  if (!failed) {
    return (
      <p role="status" className="mt-6 flex items-center gap-2 text-sm text-muted">
        <span className="i-lucide-loader-circle animate-spin" aria-hidden="true" />
        {t('wechatLogin.inProgress')}
      </p>
    );
  }
  return (
    <div className="mt-6 flex flex-col gap-3">
      <LoginAlert title={t('wechatLogin.failedTitle')}>{failure}</LoginAlert>
      <button type="button" className="btn-primary" onClick={() => wechatLogin.send({ type: 'retry' })}>
        {t('wechatLogin.retry')}
      </button>
    </div>
  );
};
