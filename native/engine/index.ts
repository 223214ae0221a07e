// The native engine's public API (the endpoint and the CLI import from here).
export { loadBackend, type BackendOptions } from "./backend";
export { ChatTemplate, parseChatOutput, renderTemplate } from "./chat";
export { Engine } from "./engine";
export { setTemplateGuard } from "./guard";
export {
  ContextOverflowError,
  EngineError,
  ModelFileError,
  TemplateLimitError,
  TemplateRefusedError,
  type EngineErrorCode,
} from "./errors";
export type * from "./types";
export {
  cudaPrefix,
  installCudaFiles,
  judgeVerification,
  readCudaRecord,
  writeCudaRecord,
  type CudaInstallOptions,
  type CudaRecord,
} from "./cudaInstall";
export { CUDA_DOWNLOAD_MB, CUDA_TARBALLS, tarballUrl, type PinnedTarball } from "./cudaPackages";
export { IntegrityError, download, fileIntegrity, type DownloadRequest } from "./download";
export { DEFAULT_REGISTRY, npmRegistry, type RegistryConfig } from "./npmRegistry";
export { LLAMA_PACKAGE_VERSION, defaultStorageDir } from "./paths";
