import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { useEditorIdentity } from '../../app/use-editor-identity';
import { mayAdminister } from '../../contract/roles';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { loginReturningTo } from '../../services/redirect';
import { AgentEditorScreen } from './agent-editor-screen';
import { StudioListScreen } from './studio-list-screen';

/** `/studio/new` and `/studio/<id>` share one editor: a new agent saved there keeps it as its address follows. */
const EditorRoute = ({ agentId }: { agentId: string | null }) => {
  const editor = useEditorIdentity(agentId ?? undefined, 'agent');
  return <AgentEditorScreen key={editor.key} agentId={agentId} onCreated={editor.adopt} />;
};

/** The agent studio, for people signed in: a visitor is sent to log in and brought back. */
const StudioArea = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('studio.title'));
  const { app } = useRuntime();
  const user = useSelector(app, (state) => state.context.user);
  const [location] = useLocation();
  const search = useSearch();
  if (!user) return <Redirect to={loginReturningTo(location, search ? `?${search}` : '')} replace />;
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <Switch>
        <Route path="/studio">
          <StudioListScreen mayListAll={mayAdminister(user)} />
        </Route>
        <Route path="/studio/new">
          <EditorRoute agentId={null} />
        </Route>
        <Route path="/studio/:id">{(params) => <EditorRoute agentId={params.id} />}</Route>
      </Switch>
    </div>
  );
};

export default StudioArea;
