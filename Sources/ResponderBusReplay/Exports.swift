// A pipeline is described from a project file (`PipelineDescription(projectFile:)`): its type comes
// with `import ResponderBusReplay`.
@_exported import ResponderBusProject
