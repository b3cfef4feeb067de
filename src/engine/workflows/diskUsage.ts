/** The figures of `docker system df` from `GET /system/df`, computed as docker/cli's formatter does. */
import type { DiskUsage } from '../api';

/** One line of `docker system df`: total, active, size and reclaimable for one kind of object. */
export interface DiskUsageLine {
  readonly type: 'Images' | 'Containers' | 'Local Volumes' | 'Build Cache';
  readonly total: number;
  readonly active: number;
  readonly size: number;
  readonly reclaimable: number;
}

export function diskUsageLines(usage: DiskUsage): DiskUsageLine[] {
  const images = usage.Images ?? [];
  const containers = usage.Containers ?? [];
  const volumes = usage.Volumes ?? [];
  const caches = usage.BuildCache ?? [];
  const activeImages = images.filter((image) => image.Containers > 0);
  const imageSize = usage.LayersSize;
  const usedImageBytes = activeImages.reduce((sum, image) => sum + image.Size - Math.max(0, image.SharedSize), 0);
  const activeContainers = containers.filter((container) => /^(running|paused|restarting)$/.test(container.State));
  const containerSize = containers.reduce((sum, container) => sum + (container.SizeRw ?? 0), 0);
  const activeVolumes = volumes.filter((volume) => (volume.UsageData?.RefCount ?? 0) > 0);
  const volumeSize = volumes.reduce((sum, volume) => sum + Math.max(0, volume.UsageData?.Size ?? 0), 0);
  const cacheSize = caches.filter((cache) => !cache.Shared).reduce((sum, cache) => sum + cache.Size, 0);
  return [
    { type: 'Images', total: images.length, active: activeImages.length, size: imageSize, reclaimable: Math.max(0, imageSize - usedImageBytes) },
    {
      type: 'Containers',
      total: containers.length,
      active: activeContainers.length,
      size: containerSize,
      reclaimable: containerSize - activeContainers.reduce((sum, container) => sum + (container.SizeRw ?? 0), 0),
    },
    {
      type: 'Local Volumes',
      total: volumes.length,
      active: activeVolumes.length,
      size: volumeSize,
      reclaimable: volumes.filter((volume) => (volume.UsageData?.RefCount ?? 0) === 0).reduce((sum, volume) => sum + Math.max(0, volume.UsageData?.Size ?? 0), 0),
    },
    {
      type: 'Build Cache',
      total: caches.length,
      active: caches.filter((cache) => cache.InUse).length,
      size: cacheSize,
      reclaimable: caches.filter((cache) => !cache.InUse && !cache.Shared).reduce((sum, cache) => sum + cache.Size, 0),
    },
  ];
}

