import { useSelector } from '@xstate/react';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWechatActors } from '../../app/login-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoginAlert } from './login-alert';

/** The QR code of a link as an SVG data URL, drawn by the qrcode library (never as markup in the page). */
const useQrImage = (link: string | null): string | null => {
  const [image, setImage] = useState<{ link: string; src: string } | null>(null);
  useEffect(() => {
    if (!link) return;
    let current = true;
    void QRCode.toString(link, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((svg) => {
      if (current) setImage({ link, src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
    });
    return () => {
      current = false;
    };
  }, [link]);
  return image && image.link === link ? image.src : null;
};

/**
 * Scan login: the QR code of the scan-login actor, which polls while this panel is shown and
 * stops when it goes (the tab changes or the page leaves).
 */
export const ScanLoginPanel = ({ returnTo }: { returnTo: string }) => {
  const { t } = useTranslation();
  const { scanLogin } = useWechatActors();
  const actor = useScreenActor(scanLogin.logic, { input: scanLogin.input(returnTo) });
  const phase = useSelector(actor, (state) =>
    (['showing', 'expired', 'denied', 'failed', 'signedIn'] as const).find((phase) => state.matches(phase)) ?? 'opening',
  );
  const link = useSelector(actor, (state) => state.context.link);
  const failure = useSelector(actor, (state) => state.context.failure);
  const qr = useQrImage(phase === 'showing' ? link : null);
  const [copied, setCopied] = useState(false);

  return (
    <div className="mt-4 flex flex-col items-center gap-3 text-center">
      {phase === 'opening' && (
        <p role="status" className="py-16 text-sm text-muted">
          {t('scanLogin.opening')}
        </p>
      )}
      {phase === 'showing' && link && (
        <>
          <div className="grid h-52 w-52 place-items-center rounded-xl border border-line bg-white p-2">
            {qr ? <img src={qr} alt={t('scanLogin.qrAlt')} width={192} height={192} /> : <span className="i-lucide-loader-circle animate-spin text-muted" />}
          </div>
          <p className="text-sm text-muted">{t('scanLogin.instructions')}</p>
          <div className="flex flex-wrap items-center justify-center gap-2 text-sm">
            <a href={link} target="_blank" rel="noopener noreferrer" className="btn-ghost">
              {t('scanLogin.openLink')}
            </a>
            <button
              type="button"
              className="btn-ghost"
              onClick={() => {
                void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => setCopied(false));
              }}
            >
              {copied ? t('scanLogin.copied') : t('scanLogin.copyLink')}
            </button>
          </div>
          <p role="status" className="sr-only">
            {t('scanLogin.waiting')}
          </p>
        </>
      )}
      {(phase === 'expired' || phase === 'denied') && (
        <div className="flex flex-col items-center gap-3 py-10">
          <p role="status" className="text-sm">
            {t(phase === 'denied' ? 'scanLogin.denied' : 'scanLogin.expired')}
          </p>
          <button type="button" className="btn-primary" onClick={() => actor.send({ type: 'refresh' })}>
            {t('scanLogin.refresh')}
          </button>
        </div>
      )}
      {phase === 'failed' && (
        <div className="flex flex-col items-center gap-3 py-10">
          <LoginAlert title={t('scanLogin.failed')}>{failure}</LoginAlert>
          <button type="button" className="btn-primary" onClick={() => actor.send({ type: 'refresh' })}>
            {t('scanLogin.refresh')}
          </button>
        </div>
      )}
      {phase === 'signedIn' && (
        <p role="status" className="py-16 text-sm">
          {t('scanLogin.signedIn')}
        </p>
      )}
    </div>
  );
};
