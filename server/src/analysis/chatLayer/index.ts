// llama.cpp's chat layer: the context it renders a request with (the template guard checks those renders)
// and the prompt llama-server sends for a scenario (the llama-server engine).
export { directContext, requestContexts } from "./chatLayerContext";
export type { RenderParams, ServedTemplate, TemplateInputs } from "./chatLayerContext";
export { chatLayerChanges, renderRequest } from "./requestRender";
export type { RequestRenderOptions } from "./requestRender";
export { ServerArgsError, SERVER_DEFAULTS, serverStartup, withServerArgs } from "./serverStartup";
export type { ServerStartup } from "./serverStartup";
