import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useDocumentTitle } from '../../i18n/use-document-title';

const NotFoundScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="mx-auto max-w-md p-12 text-center" aria-labelledby="not-found-title">
      <p className="mb-2 text-5xl font-bold text-muted" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="mb-2 text-2xl font-semibold">
        {t('notFound.title')}
      </h1>
      <p className="mb-6 text-muted">{t('notFound.description')}</p>
      <Link href="/" className="btn-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
};

export default NotFoundScreen;
