# Builds a small model in Blender and exports it as glTF 2.0 (.glb): a house (a cube body and a
# cone roof, each with its own material, the body textured by a generated checker image), for
# the import tests: a model made outside sortie.
#   blender --background --factory-startup --python tools/blender/make_model.py -- OUT.glb
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # numpy >= 1.24 dropped the alias Blender 3.4's glTF add-on still uses

out = sys.argv[sys.argv.index("--") + 1:][0]
bpy.ops.wm.read_factory_settings(use_empty=True)

image = bpy.data.images.new("walls", width=64, height=64)
pixels = []
for y in range(64):
    for x in range(64):
        brick = ((x // 8) + (y // 8)) % 2 == 0
        pixels += [0.8, 0.45, 0.3, 1.0] if brick else [0.9, 0.85, 0.7, 1.0]
image.pixels = pixels
image.pack()

walls = bpy.data.materials.new("walls")
walls.use_nodes = True
tex = walls.node_tree.nodes.new("ShaderNodeTexImage")
tex.image = image
bsdf = walls.node_tree.nodes["Principled BSDF"]
walls.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])

roof = bpy.data.materials.new("roof")
roof.use_nodes = True
roof.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.5, 0.1, 0.1, 1.0)

bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0, 0, 1.0))
body = bpy.context.active_object
body.scale = (2.0, 1.5, 1.0)
body.data.materials.append(walls)
bpy.ops.mesh.primitive_cone_add(vertices=4, radius1=2.8, depth=1.5, location=(0, 0, 2.75))
top = bpy.context.active_object
top.rotation_euler = (0, 0, 0.785398)
top.scale = (1.0, 0.75, 1.0)
top.data.materials.append(roof)
bpy.ops.export_scene.gltf(filepath=out, export_format="GLB")
print("BLENDER_WROTE " + out)
