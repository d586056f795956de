import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Switch, useLocation, useSearch } from 'wouter';
import { operationsGuardLogic } from '../../app/operations-actors';
import { useLocationEvents } from '../../app/use-follow';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { PublishModesContext } from './publish-modes';
import { OverviewScreen } from './overview-screen';
import { TaskRoute } from './task-route';
import { useScreenActor } from '../../app/use-screen-actor';
import { useRuntime } from '../../app/runtime-context';

/** The operations area: nothing of it shows until the guard has verified the session. */
const OperationsArea = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('operations.title'));
  const [pathname, navigate] = useLocation();
  const search = useSearch();
  const { app } = useRuntime();
  const guard = useScreenActor(operationsGuardLogic({ navigate, app }), { input: { pathname, search } });
  useLocationEvents(guard);
  const allowed = useSelector(guard, (state) => state.matches('allowed'));
  const unreachable = useSelector(guard, (state) => state.matches('unreachable'));
  const forbidden = useSelector(guard, (state) => state.matches('forbidden'));
  const publishing = useSelector(guard, (state) => state.context.publishing);

  if (unreachable) {
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 p-8 text-center">
        <p className="m-0">{t('operations.unreachable')}</p>
        <button type="button" className="btn-primary" onClick={() => guard.send({ type: 'retry' })}>
          {t('errors.retry')}
        </button>
      </div>
    );
  }
  if (forbidden) {
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 p-8 text-center">
        <span className="i-lucide-shield-alert text-3xl text-muted" aria-hidden="true" />
        <p className="m-0">{t('operations.forbidden')}</p>
        <Link href="/" className="btn-primary">
          {t('operations.backHome')}
        </Link>
      </div>
    );
  }
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
