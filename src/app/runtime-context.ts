import { createContext, useContext } from 'react';
import type { Runtime } from './runtime';

export const RuntimeContext = createContext<Runtime | null>(null);

export const useRuntime = (): Runtime => {
  const runtime = useContext(RuntimeContext);
  if (!runtime) throw new Error('useRuntime needs a RuntimeContext provider');
  return runtime;
};
