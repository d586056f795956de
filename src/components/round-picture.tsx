import { useState, type ReactNode } from 'react';

/**
 * A round picture of the given size, or the fallback when there is none or it fails to load
 * (gone, or outside the image policy). A new `src` is tried again.
 */
export const RoundPicture = ({ src, size, fallback }: { src: string; size: number; fallback: ReactNode }) => {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src || failedSrc === src) return fallback;
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      className="shrink-0 rounded-full object-cover"
      style={{ width: size, height: size }}
      onError={() => setFailedSrc(src)}
    />
  );
};
