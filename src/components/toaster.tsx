import * as ToastPrimitive from '@radix-ui/react-toast';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { useRuntime } from '../app/runtime-context';
import { TOAST_DURATION_MS, type Toast, type toastMachine } from '../machines/toast.machine';

const variantClass: Record<Toast['variant'], string> = {
  default: 'border-line',
  destructive: 'border-danger text-danger',
  success: 'border-success',
  warn: 'border-warn',
};

/**
 * Renders the toast queue with Radix: it closes each toast after 5 s, pauses on hover or focus,
 * closes on a swipe up past 50 px, and F8 focuses the viewport. Every close is reported to the
 * queue as a dismissal.
 */
export const Toaster = () => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const toasts = app.system.get('toasts') as ActorRefFrom<typeof toastMachine>;
  const list = useSelector(toasts, (state) => state.context.toasts);
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="up" swipeThreshold={50} label={t('toast.region')}>
      {list.map((toast) => (
        <ToastPrimitive.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) toasts.send({ type: 'toast.dismiss', id: toast.id });
          }}
          className={`grid gap-1 rounded-lg border bg-surface p-4 pe-10 shadow-lg relative ${variantClass[toast.variant]}`}
          data-variant={toast.variant}
        >
          {toast.title && <ToastPrimitive.Title className="font-semibold">{toast.title}</ToastPrimitive.Title>}
          {toast.description && (
            <ToastPrimitive.Description className="text-sm text-fg break-words">{toast.description}</ToastPrimitive.Description>
          )}
          {toast.action && (
            <ToastPrimitive.Action altText={toast.action.altText} className="btn-outline justify-self-start" onClick={toast.action.onAction}>
              {toast.action.label}
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close aria-label={t('toast.close')} className="absolute end-2 top-2 btn-ghost p-1">
            <span className="i-lucide-x" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* At the top, centred over the header's empty middle: the primary actions of the pages sit at
          the bottom (the composer's send button) or at the ends (Save, Mark as ready, New task). */}
      <ToastPrimitive.Viewport
        label={t('toast.viewport')}
        className="fixed inset-x-0 top-0 z-50 mx-auto my-0 flex w-full list-none flex-col gap-2 p-2 outline-none md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
};
