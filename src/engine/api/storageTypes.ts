/**
 * Wire types of the Engine API's volume, network, disk-usage and prune endpoints (moby's api/swagger.yaml; Podman's
 * compat handlers answer the same shapes, with some fields missing).
 */
import type { CallOptions, ListFilters } from '../connection';

export interface VolumeUsage {
  /** Bytes, or -1 when the engine did not compute it. */
  Size: number;
  /** Containers referencing the volume, or -1 when not computed. */
  RefCount: number;
}

export interface Volume {
  Name: string;
  Driver: string;
  Mountpoint: string;
  /** RFC 3339; missing on old engines. */
  CreatedAt?: string;
  Labels: Record<string, string> | null;
  Scope: string;
  Options?: Record<string, string> | null;
  /** Only in `/system/df`. */
  UsageData?: VolumeUsage | null;
}

export interface VolumeList {
  Volumes: Volume[] | null;
  Warnings: string[] | null;
}

export interface CreateVolumeBody {
  Name?: string;
  Driver?: string;
  Labels?: Record<string, string>;
  DriverOpts?: Record<string, string>;
}

export interface NetworkContainer {
  Name: string;
  EndpointID: string;
  MacAddress: string;
  IPv4Address: string;
  IPv6Address: string;
}

export interface Network {
  Name: string;
  Id: string;
  Created: string;
  Scope: string;
  Driver: string;
  EnableIPv6: boolean;
  Internal: boolean;
  Attachable: boolean;
  IPAM: { Driver: string; Config: Array<{ Subnet?: string; Gateway?: string }> | null } | null;
  Containers?: Record<string, NetworkContainer> | null;
  Labels: Record<string, string> | null;
}

export interface CreateNetworkBody {
  Name: string;
  Driver?: string;
  Internal?: boolean;
  Labels?: Record<string, string>;
  IPAM?: { Config: Array<{ Subnet: string }> };
}

export interface DiskUsageImage {
  Id: string;
  RepoTags: string[] | null;
  Size: number;
  SharedSize: number;
  Containers: number;
  Created: number;
}

export interface DiskUsageContainer {
  Id: string;
  Names: string[];
  Image: string;
  State: string;
  SizeRw?: number;
  SizeRootFs?: number;
  Created: number;
  Status: string;
  Labels?: Record<string, string> | null;
}

export interface BuildCacheRecord {
  ID: string;
  Type: string;
  Description?: string;
  InUse: boolean;
  Shared: boolean;
  Size: number;
  CreatedAt: string;
  LastUsedAt: string | null;
  UsageCount: number;
}

/** `GET /system/df`. */
export interface DiskUsage {
  LayersSize: number;
  Images: DiskUsageImage[] | null;
  Containers: DiskUsageContainer[] | null;
  Volumes: Volume[] | null;
  BuildCache: BuildCacheRecord[] | null;
}

/** What every prune endpoint answers: the removed objects under its own key, and the bytes freed. */
export interface PruneReport {
  /** Names or ids of what was removed. */
  removed: string[];
  spaceReclaimed: number;
}

export interface FilterOptions extends CallOptions {
  filters?: ListFilters;
}

export interface RemoveVolumeOptions extends CallOptions {
  force?: boolean;
}

export interface ConnectNetworkOptions extends CallOptions {
  force?: boolean;
}
