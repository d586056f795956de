import { assertEvent, assign, cancel, enqueueActions, raise, setup } from 'xstate';

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive' | 'success' | 'warn';

export type ToastAction = { label: string; altText: string; onAction: () => void };

export type Toast = {
  id: string;
  title?: string;
  description?: string;
  action?: ToastAction;
  variant: ToastVariant;
  /** False once dismissed: the toast animates out and is removed after the removal delay. */
  open: boolean;
};

export type ToastInput = Omit<Toast, 'id' | 'open' | 'variant'> & { id?: string; variant?: ToastVariant };

export type ToastEvent =
  | { type: 'toast.add'; toast: ToastInput }
  | { type: 'toast.update'; id: string; patch: Partial<Omit<Toast, 'id'>> }
  | { type: 'toast.dismiss'; id?: string }
  | { type: 'toast.remove'; id?: string };

type ToastContext = { toasts: Toast[]; nextId: number };

const removalTimer = (id: string) => `remove:${id}`;

/** The id a new toast is shown under: its own, or the next free one. */
const idOf = (context: ToastContext, toast: ToastInput) => toast.id ?? `toast-${context.nextId}`;

/**
 * The toast queue: the newest toast is shown, at most TOAST_LIMIT at a time. Auto-close after
 * TOAST_DURATION_MS, swipe and pause on hover or focus are the viewport's (Radix) job; it reports
 * a close as `toast.dismiss`, after which the toast is removed once the removal delay has passed.
 */
export const toastMachine = setup({
  types: { context: {} as ToastContext, events: {} as ToastEvent },
  actions: {
    /** A toast added again after it was dismissed is shown anew: its old removal must not take it away. */
    cancelRemoval: cancel(({ context, event }) => {
      assertEvent(event, 'toast.add');
      return removalTimer(idOf(context, event.toast));
    }),
    addToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.add');
      const id = idOf(context, event.toast);
      const toast: Toast = { variant: 'default', ...event.toast, id, open: true };
      return {
        toasts: [toast, ...context.toasts.filter((item) => item.id !== id)].slice(0, TOAST_LIMIT),
        nextId: context.nextId + 1,
      };
    }),
    updateToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.update');
      return {
        toasts: context.toasts.map((toast) => (toast.id === event.id ? { ...toast, ...event.patch, id: toast.id } : toast)),
      };
    }),
    closeToasts: assign(({ context, event }) => {
      assertEvent(event, 'toast.dismiss');
      return {
        toasts: context.toasts.map((toast) =>
          event.id === undefined || toast.id === event.id ? { ...toast, open: false } : toast,
        ),
      };
    }),
    /** One removal timer per dismissed toast; dismissing it again restarts its timer. */
    scheduleRemoval: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'toast.dismiss');
      const ids = event.id === undefined ? context.toasts.map((toast) => toast.id) : [event.id];
      for (const id of ids) {
        enqueue(cancel(removalTimer(id)));
        enqueue(raise({ type: 'toast.remove', id }, { delay: 'removeDelay', id: removalTimer(id) }));
      }
    }),
    removeToasts: assign(({ context, event }) => {
      assertEvent(event, 'toast.remove');
      return { toasts: event.id === undefined ? [] : context.toasts.filter((toast) => toast.id !== event.id) };
    }),
  },
  delays: { removeDelay: TOAST_REMOVE_DELAY_MS },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1 },
  on: {
    'toast.add': { actions: ['cancelRemoval', 'addToast'] },
    'toast.update': { actions: 'updateToast' },
    'toast.dismiss': { actions: ['scheduleRemoval', 'closeToasts'] },
    'toast.remove': { actions: 'removeToasts' },
  },
});
