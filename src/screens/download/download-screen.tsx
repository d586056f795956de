import { useTranslation } from 'react-i18next';

const DownloadScreen = () => {
  const { t } = useTranslation();
  return (
    <section className="mx-auto w-full max-w-2xl p-6" aria-labelledby="download-title">
      <h1 id="download-title" className="mb-2 text-2xl font-semibold">
        {t('download.title')}
      </h1>
      <p className="text-muted">{t('download.intro')}</p>
    </section>
  );
};

export default DownloadScreen;
