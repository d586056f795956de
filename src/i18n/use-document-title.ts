import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The browser tab names the page in the interface language ("Log in - Kraken AI"), and follows a
 * language change. Without a page name the tab shows the product name alone. The page's
 * description (what a search result shows under it) follows too: the page's own sentence, or the
 * product's slogan.
 */
export const useDocumentTitle = (page?: string | null, description?: string | null): void => {
  const { t } = useTranslation();
  const title = page ? t('app.documentTitle', { page }) : t('app.name');
  const summary = description || t('app.slogan');
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    // index.html carries the tag (in the default language), so search engines find one at once.
    document.querySelector('meta[name=description]')?.setAttribute('content', summary);
  }, [summary]);
};
