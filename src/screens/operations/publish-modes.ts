import { createContext, useContext } from 'react';
import type { PublishModes } from '../../machines/operations-guard.machine';

/** How each platform publishes, as the session check said. */
export const PublishModesContext = createContext<PublishModes>({ xiaohongshu: 'export', linkedin: 'export' });

export const usePublishModes = (): PublishModes => useContext(PublishModesContext);
