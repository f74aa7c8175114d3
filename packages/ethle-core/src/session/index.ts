// The stream session both edges mount: manifest views and the loaders that build them.
export * from './ManifestView.js';
export * from './loadManifest.js';
export * from './originPath.js';
