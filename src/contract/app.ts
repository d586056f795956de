import * as v from 'valibot';
import { timestampSchema } from './common';

/** The desktop systems the app is built for, in the order the download page lists them. */
export const DESKTOP_PLATFORMS = ['windows', 'macos', 'linux'] as const;
export const desktopPlatformSchema = v.picklist(DESKTOP_PLATFORMS);
export type DesktopPlatform = (typeof DESKTOP_PLATFORMS)[number];

/** A link: a path on this server (`/downloads/...`) or an absolute https URL. */
const linkSchema = v.pipe(
  v.string(),
  v.maxLength(1000),
  v.check((value) => /^\/(?!\/)/.test(value) || /^https:\/\//i.test(value), 'a link is a path on this server or an https URL'),
);

/** One installer of a platform, e.g. the Apple-silicon disk image of macOS. */
export const downloadFileSchema = v.object({
  /** Architecture or flavour, shown beside the link: `x64`, `arm64`, `universal`, `AppImage`, `deb`. */
  label: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  url: linkSchema,
  fileName: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  /** Bytes; absent when not known (the file is not on this server yet). */
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  sha256: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
  /** False when the server knows the file is not there yet: no link is offered. Absent means it is. */
  available: v.optional(v.boolean()),
});
export type DownloadFile = v.InferOutput<typeof downloadFileSchema>;

export const platformReleaseSchema = v.object({
  platform: desktopPlatformSchema,
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  releasedAt: timestampSchema,
  /** e.g. "Windows 10 or later"; shown as written when `minimumSystems` is absent. */
  requirement: v.optional(v.pipe(v.string(), v.maxLength(120))),
  /**
   * The oldest systems it runs on, as names with versions (`Windows 10`; `Ubuntu 22.04`,
   * `Debian 12`): the page says "… or later" in the reader's language.
   */
  minimumSystems: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(40))), v.maxLength(6))),
  files: v.pipe(v.array(downloadFileSchema), v.minLength(1)),
});
export type PlatformRelease = v.InferOutput<typeof platformReleaseSchema>;

/** Whether the installers can be downloaded: all of them, some, or none yet. */
export const DOWNLOADS_STATUSES = ['available', 'partial', 'unavailable'] as const;

/** What `GET /api/app/download-manifest` answers: the current desktop release per platform. */
export const downloadManifestSchema = v.object({
  platforms: v.pipe(v.array(platformReleaseSchema), v.minLength(1)),
  /** Absent means available (a manifest written by hand lists files that exist). */
  status: v.optional(v.picklist(DOWNLOADS_STATUSES)),
  /** Every release with its notes, when the project publishes them somewhere. */
  releasesPageUrl: v.optional(linkSchema),
});
export type DownloadManifest = v.InferOutput<typeof downloadManifestSchema>;
