import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { useRuntime } from '../app/runtime-context';
import type { toastMachine } from '../machines/toast.machine';
import { lazyPart } from './lazy-part';

/** A toaster whose code cannot be fetched (the server restarting) leaves the page as it is, and comes later. */
const Toaster = lazyPart(() => import('./toaster').then((module) => ({ default: module.Toaster })));

/**
 * The toaster, fetched with the first toast: most visits never show one, so the home page does
 * not download the toast library. Once loaded it stays, for the next toast and the F8 hotkey.
 */
export const LazyToaster = () => {
  const { app } = useRuntime();
  const toasts = app.system.get('toasts') as ActorRefFrom<typeof toastMachine>;
  const wanted = useSelector(toasts, (state) => state.context.toasts.length > 0);
  const [loaded, setLoaded] = useState(false);
  if (wanted && !loaded) setLoaded(true);
  return loaded ? <Toaster /> : null;
};
