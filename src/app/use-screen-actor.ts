import { useActorRef } from '@xstate/react';
import type { Actor, ActorOptions, AnyActorLogic, IsNotNever, RequiredActorOptionsKeys } from 'xstate';
import { useRuntime } from './runtime-context';

type ScreenActorArgs<TLogic extends AnyActorLogic> =
  IsNotNever<RequiredActorOptionsKeys<TLogic>> extends true
    ? [options: ActorOptions<TLogic> & { [K in RequiredActorOptionsKeys<TLogic>]: unknown }]
    : [options?: ActorOptions<TLogic>];

/**
 * An actor that lives as long as its screen (a form, a page's data), reported to the app's
 * inspector like the long-lived ones, so `?inspect` shows every machine at work.
 */
export function useScreenActor<TLogic extends AnyActorLogic>(logic: TLogic, ...[options]: ScreenActorArgs<TLogic>): Actor<TLogic> {
  const { inspect } = useRuntime();
  return useActorRef(logic, { ...options, inspect } as never);
}
