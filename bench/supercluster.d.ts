// The part of supercluster 8 (a benchmark-only dev dependency, shipped without types) the
// clustering benchmark calls.
declare module 'supercluster' {
  interface PointFeature {
    type: 'Feature';
    geometry: { type: 'Point'; coordinates: [number, number] };
    properties: Record<string, unknown> | null;
  }
  export default class Supercluster {
    constructor(options?: { minZoom?: number; maxZoom?: number; minPoints?: number; radius?: number; extent?: number; nodeSize?: number });
    load(points: PointFeature[]): this;
    getClusters(bbox: [number, number, number, number], zoom: number): PointFeature[];
    /** The points a cluster holds (limit, offset: a page of them). */
    getLeaves(clusterId: number, limit?: number, offset?: number): PointFeature[];
  }
}
