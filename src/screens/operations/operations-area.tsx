import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Switch, useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { operationsGuardMachine, type VerifiedSession } from '../../machines/operations-guard.machine';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { verifyOperationsSession } from '../../services/api/tasks';
import { getToken } from '../../services/cookies';
import { loginUrlFor } from '../../services/redirect';
import { PublishModesContext } from './publish-modes';
import { OverviewScreen } from './overview-screen';
import { TaskRoute } from './task-route';
import { useScreenActor } from '../../app/use-screen-actor';

/** The operations area: nothing of it shows until the guard has verified the session. */
const OperationsArea = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('operations.title'));
  const [pathname, navigate] = useLocation();
  const search = useSearch();
  const guard = useScreenActor(
    operationsGuardMachine.provide({
      actors: {
        verifySession: fromPromise<VerifiedSession>(() => verifyOperationsSession({ silent: true })),
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
  const publishing = useSelector(guard, (state) => state.context.publishing);

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
    <PublishModesContext.Provider value={publishing}>
      <div className="mx-auto w-full max-w-6xl p-4 sm:p-6">
        <Switch>
          <Route path="/kraken-operation" component={OverviewScreen} />
          <Route path="/kraken-operation/task/edit/:id" component={TaskRoute} />
          <Route path="/kraken-operation/task/:platform" component={TaskRoute} />
          <Route>
            <OverviewScreen />
          </Route>
        </Switch>
      </div>
    </PublishModesContext.Provider>
  );
};

export default OperationsArea;
