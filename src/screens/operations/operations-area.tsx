import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Switch, useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { operationsGuardMachine } from '../../machines/operations-guard.machine';
import { getUserInfo } from '../../services/api/users';
import { getToken } from '../../services/cookies';
import { loginUrlFor } from '../../services/redirect';
import { useDocumentTitle } from '../../i18n/use-document-title';

const Overview = () => {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="mb-4 text-2xl font-semibold">{t('operations.title')}</h1>
      <div className="flex flex-wrap gap-2">
        <Link href="/kraken-operation/task/xiaohongshu" className="btn-primary">
          {t('operations.newXiaohongshu')}
        </Link>
        <Link href="/kraken-operation/task/linkedin" className="btn-outline">
          {t('operations.newLinkedin')}
        </Link>
      </div>
    </>
  );
};

const TaskEdit = ({ params }: { params: { id: string } }) => {
  const { t } = useTranslation();
  return <h1 className="text-2xl font-semibold">{t('operations.editTask', { id: params.id })}</h1>;
};

const XiaohongshuTask = () => {
  const { t } = useTranslation();
  return <h1 className="text-2xl font-semibold">{t('operations.xiaohongshu')}</h1>;
};

const LinkedinTask = () => {
  const { t } = useTranslation();
  return <h1 className="text-2xl font-semibold">{t('operations.linkedin')}</h1>;
};

/** The operations area: nothing of it shows until the guard has verified the session. */
const OperationsArea = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('operations.title'));
  const [pathname, navigate] = useLocation();
  const search = useSearch();
  const guard = useActorRef(
    operationsGuardMachine.provide({
      actors: {
        verifySession: fromPromise(async () => ({ userId: (await getUserInfo({ silent: true })).id })),
      },
      actions: {
        redirectToLogin: (_, { pathname: path, search: query }) =>
          navigate(loginUrlFor(path, query ? `?${query}` : ''), { replace: true }),
      },
      guards: { hasToken: () => Boolean(getToken()) },
    }),
    { input: { pathname, search } },
  );
  const allowed = useSelector(guard, (state) => state.matches('allowed'));

  useEffect(() => {
    guard.send({ type: 'location.changed', pathname, search });
  }, [guard, pathname, search]);

  if (!allowed) {
    return (
      <p role="status" className="p-8 text-center text-muted">
        {t('operations.checking')}
      </p>
    );
  }
  return (
    <div className="mx-auto w-full max-w-5xl p-6">
      <Switch>
        <Route path="/kraken-operation" component={Overview} />
        <Route path="/kraken-operation/task/edit/:id" component={TaskEdit} />
        <Route path="/kraken-operation/task/xiaohongshu" component={XiaohongshuTask} />
        <Route path="/kraken-operation/task/linkedin" component={LinkedinTask} />
        <Route>
          <Overview />
        </Route>
      </Switch>
    </div>
  );
};

export default OperationsArea;
