import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { GOOGLE_RETURN_PATH, SCAN_APPROVAL_PATH } from '../services/redirect';
import { isCheckingSession } from '../machines/app.machine';
import { lazyScreen, ScreenBoundary } from './lazy-screen';
import { useRuntime } from './runtime-context';

const HomeScreen = lazyScreen(() => import('../screens/home/home-screen'), { translations: 'shell' });
const LoginScreen = lazyScreen(() => import('../screens/login/login-screen'));
const GoogleReturnScreen = lazyScreen(() => import('../screens/login/google-return-screen'));
const ResetPasswordScreen = lazyScreen(() => import('../screens/login/reset-password-screen'));
const ChatScreen = lazyScreen(() => import('../screens/chat/chat-screen'));
const AccountScreen = lazyScreen(() => import('../screens/account/account-screen'));
const DownloadScreen = lazyScreen(() => import('../screens/download/download-screen'));
const OperationsArea = lazyScreen(() => import('../screens/operations/operations-area'));
const AdminScreen = lazyScreen(() => import('../screens/admin/admin-screen'));
const StudioArea = lazyScreen(() => import('../screens/studio/studio-area'));
const ScanApprovalScreen = lazyScreen(() => import('../screens/scan-approval/scan-approval-screen'));
const SharedConversationScreen = lazyScreen(() => import('../screens/share/shared-conversation-screen'));
const NotFoundScreen = lazyScreen(() => import('../screens/not-found/not-found-screen'));

const PageLoading = () => {
  const { t } = useTranslation();
  return (
    <div role="status" data-testid="page-loading" className="p-8 text-center text-muted">
      {t('app.loading')}
    </div>
  );
};

/** Pages that are the same for everyone: they show while a stored session is still being checked. */
const PUBLIC_PAGES = new Set(['/', '/home', '/download']);

/** Every route of the product; each page is its own chunk. */
export const Routes = () => {
  const [page] = useLocation();
  const { app } = useRuntime();
  const checkingSession = useSelector(app, isCheckingSession);
  if (checkingSession && !PUBLIC_PAGES.has(page)) return <PageLoading />;
  return (
    <ScreenBoundary page={page}>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          <Route path="/" component={HomeScreen} />
          <Route path="/home" component={HomeScreen} />
          <Route path="/login" component={LoginScreen} />
          <Route path={GOOGLE_RETURN_PATH} component={GoogleReturnScreen} />
          <Route path="/reset-password" component={ResetPasswordScreen} />
          <Route path="/chat" component={ChatScreen} />
          <Route path="/chat/*" component={ChatScreen} />
          <Route path="/account" component={AccountScreen} />
          <Route path={SCAN_APPROVAL_PATH} component={ScanApprovalScreen} />
          <Route path="/download" component={DownloadScreen} />
          <Route path="/share/:token" component={SharedConversationScreen} />
          <Route path="/kraken-operation" component={OperationsArea} />
          <Route path="/kraken-operation/*" component={OperationsArea} />
          <Route path="/admin" component={AdminScreen} />
          <Route path="/studio" component={StudioArea} />
          <Route path="/studio/*" component={StudioArea} />
          <Route path="/index.html">
            <Redirect to="/" replace />
          </Route>
          <Route component={NotFoundScreen} />
        </Switch>
      </Suspense>
    </ScreenBoundary>
  );
};
