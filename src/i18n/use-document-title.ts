import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The browser tab names the page in the interface language ("Log in - Kraken AI"), and follows a
 * language change. Without a page name the tab shows the product name alone.
 */
export const useDocumentTitle = (page?: string | null): void => {
  const { t } = useTranslation();
  const title = page ? t('app.documentTitle', { page }) : t('app.name');
  useEffect(() => {
    document.title = title;
  }, [title]);
};
