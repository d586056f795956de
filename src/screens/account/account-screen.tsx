import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { useDocumentTitle } from '../../i18n/use-document-title';

const AccountScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('account.title'));
  const { app } = useRuntime();
  const user = useSelector(app, (state) => state.context.user);
  if (!user) return <Redirect to={`/login?redirect_url=${encodeURIComponent('/account')}`} replace />;
  return (
    <section className="mx-auto w-full max-w-lg p-6" aria-labelledby="account-title">
      <h1 id="account-title" className="mb-6 text-2xl font-semibold">
        {t('account.title')}
      </h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-3">
        <dt className="text-muted">{t('account.username')}</dt>
        <dd data-testid="account-username">{user.username}</dd>
        <dt className="text-muted">{t('account.nickname')}</dt>
        <dd>{user.nickname}</dd>
        <dt className="text-muted">{t('account.wechatId')}</dt>
        <dd>{user.wechatId || '—'}</dd>
      </dl>
      <Link href="/" className="btn-outline mt-6">
        {t('account.back')}
      </Link>
    </section>
  );
};

export default AccountScreen;
