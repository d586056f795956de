import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useRuntime } from '../app/runtime-context';

/**
 * Tells the preferences which page is showing. The first one of a page load is where the person
 * landed: on the home page, a returning user who chose "last chat" is taken to it.
 */
export const usePageShown = (): void => {
  const { preferences } = useRuntime();
  const [path] = useLocation();
  useEffect(() => {
    preferences.send({ type: 'page.shown', path });
  }, [preferences, path]);
};
